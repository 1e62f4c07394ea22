#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h41/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
echo '== collect'
/work/wt-h41/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14 --model-url http://127.0.0.1:38765/v1 --model-name sim-policy
echo '== profile'
/work/wt-h41/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
