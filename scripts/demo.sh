#!/usr/bin/env bash
# Set up (if needed) and run the demo eval sweep: gym-pipeline demo, with any arguments passed on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/gym-pipeline demo "$@"
