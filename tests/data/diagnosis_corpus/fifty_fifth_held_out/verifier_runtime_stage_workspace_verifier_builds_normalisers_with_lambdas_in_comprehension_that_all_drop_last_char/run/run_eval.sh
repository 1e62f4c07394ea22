#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h55/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14
echo '== collect'
/work/wt-h55/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14 --model-url http://127.0.0.1:45089/v1 --model-name sim-policy
echo '== profile'
/work/wt-h55/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14
