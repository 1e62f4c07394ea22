#!/bin/bash
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h51/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h51/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46233/v1 --model-name sim-policy
echo '== profile'
/work/wt-h51/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
