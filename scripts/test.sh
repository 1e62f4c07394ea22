#!/usr/bin/env bash
# Set up (if needed), start the services the integration tests use, lint, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/install-browser.sh
# The launchers' integration tests need a real Docker engine and Slurm (both idempotent, loopback only):
# export what they print (DOCKER_HOST, SLURM_CONF).
eval "$(bash scripts/dev-services.sh up docker)"
eval "$(bash scripts/dev-services.sh up slurm 3)"  # a single-node cluster per test worker
# The nemo_gym engine's tests need NeMo Gym (idempotent; ~1.4 GB the first time): export the
# GYM_PIPELINE_NEMO_GYM line it prints last. Those tests run Gym in a loopback-only network namespace.
eval "$(bash scripts/install-nemo-gym.sh | tail -n 1)"
.venv/bin/ruff check gym_pipeline tests benchmarks
# Three workers on two cores: many integration tests spend minutes waiting (Slurm time limits, servers loading) with
# a core idle; each worker submits to its own Slurm cluster, and tests/conftest.py keeps the real NeMo Gym's tests
# (and the task-folder diagnosis fixture's) on one worker (--dist loadgroup).
# --durations: the slowest tests, listed at the end, to keep the run inside CI's 90 minutes.
exec .venv/bin/python -m pytest -n 3 --dist loadgroup --durations=40 "$@"
