#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image/run
# provenance for the weekly report: the registry digest of the sandboxes' base image
echo "base image: $(docker image inspect --format '{{index .RepoDigests 0}}' gym-pipeline/base:bookworm)"
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35363/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
