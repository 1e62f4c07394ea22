#!/bin/bash
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline/run
echo '== weekly taskset run'
echo '== materialize'
/work/h93/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h93/.venv/bin/gym-pipeline stage collect --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38713/v1 --model-name sim-policy
echo '== profile'
/work/h93/.venv/bin/gym-pipeline stage profile --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
