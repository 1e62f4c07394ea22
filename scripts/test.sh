#!/usr/bin/env bash
# Set up (if needed), lint, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/install-browser.sh
.venv/bin/ruff check gym_pipeline tests benchmarks
exec .venv/bin/python -m pytest "$@"
