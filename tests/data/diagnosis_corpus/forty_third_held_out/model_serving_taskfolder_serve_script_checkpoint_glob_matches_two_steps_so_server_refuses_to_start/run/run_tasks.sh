#!/bin/bash
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start/run
echo '== weekly taskset run of step_0200'
echo '== materialize'
/work/wt-h43/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h43/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33835/v1 --model-name sim-policy
echo '== profile'
/work/wt-h43/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
