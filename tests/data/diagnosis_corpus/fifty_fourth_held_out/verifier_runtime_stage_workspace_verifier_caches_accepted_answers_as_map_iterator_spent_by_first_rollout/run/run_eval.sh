#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h54/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h54/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:37053/v1 --model-name sim-policy
echo '== profile'
/work/wt-h54/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
