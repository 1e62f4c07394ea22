#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h58/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14
echo '== collect'
/work/wt-h58/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14 --model-url http://127.0.0.1:36865/v1 --model-name sim-policy
echo '== profile'
/work/wt-h58/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches/run/sweep.yaml --checkpoint step_0200 --env questions --code-version v14
