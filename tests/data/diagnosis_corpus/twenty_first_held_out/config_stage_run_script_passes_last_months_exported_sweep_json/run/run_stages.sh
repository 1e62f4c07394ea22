#!/bin/bash
# run the nightly stages of step_0200 x string_match
cd /work/wt-h21/tests/data/diagnosis_corpus/held_out/config_stage_run_script_passes_last_months_exported_sweep_json/run
/work/wt-h21/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/config_stage_run_script_passes_last_months_exported_sweep_json/run/sweep.json --checkpoint step_0200 --env string_match --code-version v14
/work/wt-h21/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/config_stage_run_script_passes_last_months_exported_sweep_json/run/sweep.json --checkpoint step_0200 --env string_match --code-version v14 --model-url http://127.0.0.1:33439/v1 --model-name sim-policy
/work/wt-h21/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/config_stage_run_script_passes_last_months_exported_sweep_json/run/sweep.json --checkpoint step_0200 --env string_match --code-version v14
