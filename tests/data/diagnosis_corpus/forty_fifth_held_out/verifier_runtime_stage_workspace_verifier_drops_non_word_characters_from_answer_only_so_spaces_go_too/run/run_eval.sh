#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h45/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h45/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:39253/v1 --model-name sim-policy
echo '== profile'
/work/wt-h45/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
