#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h49/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h49/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:39221/v1 --model-name sim-policy
echo '== profile'
/work/wt-h49/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
