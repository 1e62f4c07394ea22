#!/usr/bin/env bash
# Create .venv with Python 3.11+ and install gym_pipeline with its pinned dependencies.
# Idempotent: a second run with unchanged pyproject.toml and constraints.txt does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "gym-pipeline needs Python 3.11 or newer on PATH" >&2; return 1
}

stamp=.venv/.gym-pipeline-installed
wanted=$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi
if [ ! -x .venv/bin/python ]; then
  "$(pick_python)" -m venv .venv
fi
echo "installing gym-pipeline and its dependencies into .venv ..." >&2
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
echo "$wanted" > "$stamp"
