#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h43/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing/run/sweep.yaml --checkpoint step_0200 --env numeric --code-version v14
echo '== collect'
/work/wt-h43/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing/run/sweep.yaml --checkpoint step_0200 --env numeric --code-version v14 --model-url http://127.0.0.1:38051/v1 --model-name sim-policy
echo '== profile'
/work/wt-h43/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing/run/sweep.yaml --checkpoint step_0200 --env numeric --code-version v14
