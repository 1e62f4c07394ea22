"""Task-folder environments: tasks in Harbor's format, run in Docker sandboxes and scored by their own tests.

A task is a folder holding `task.toml`, `instruction.md`, `environment/Dockerfile`, `tests/test.sh` (which
writes `/logs/verifier/reward.txt` or `reward.json`) and optionally `solution/solve.sh`; a taskset is a folder
of task folders, with an optional `dataset.toml` of Gym's dataset settings. Loading (`loader`), materialized
rows and their staleness (`materialize`) are plain Python; `sandbox` drives the Docker engine through its SDK,
`episode` runs one attempt (seed, agent, verification, cleanup), `collect` a whole run, `validate` the oracle.
"""
