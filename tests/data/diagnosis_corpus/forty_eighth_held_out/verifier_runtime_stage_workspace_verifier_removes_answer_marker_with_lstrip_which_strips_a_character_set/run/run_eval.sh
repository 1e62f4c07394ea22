#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h48/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h48/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:46631/v1 --model-name sim-policy
echo '== profile'
/work/wt-h48/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
