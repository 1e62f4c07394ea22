#!/bin/bash
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built/run
echo '== weekly taskset run'
# the slim base is smaller to ship: show whether this engine has it (the tasks still name bookworm)
docker image inspect gym-pipeline/base:bookworm-slim --format '{{.Id}}' || echo '(no slim base here)'
echo '== materialize'
/work/wt-h47/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h47/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40015/v1 --model-name sim-policy
echo '== profile'
/work/wt-h47/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
