#!/bin/bash
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command/run
echo '== weekly taskset run'
echo '== materialize'
/work/h93/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h93/.venv/bin/gym-pipeline stage collect --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43099/v1 --model-name sim-policy
echo '== profile'
/work/h93/.venv/bin/gym-pipeline stage profile --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
