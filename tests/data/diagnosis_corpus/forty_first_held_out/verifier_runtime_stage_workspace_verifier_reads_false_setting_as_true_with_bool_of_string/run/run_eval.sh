#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string/run
set -a; source verifier.env; set +a
echo "== weekly eval (case sensitive: $VERIFIER_CASE_SENSITIVE)"
echo '== materialize'
/work/wt-h41/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
echo '== collect'
/work/wt-h41/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14 --model-url http://127.0.0.1:33847/v1 --model-name sim-policy
echo '== profile'
/work/wt-h41/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
