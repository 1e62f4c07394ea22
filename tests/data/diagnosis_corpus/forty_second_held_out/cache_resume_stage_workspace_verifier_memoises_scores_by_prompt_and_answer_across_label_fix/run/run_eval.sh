#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix/run
echo '== weekly eval (fresh run)'
rm -f rollouts.jsonl rollouts_failures.jsonl rollouts_materialized_inputs.jsonl rollouts_reward_profiling.jsonl
echo '== materialize'
/work/wt-h42/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
echo '== collect'
/work/wt-h42/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14 --model-url http://127.0.0.1:38601/v1 --model-name sim-policy
echo '== profile'
/work/wt-h42/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix/run/sweep.yaml --checkpoint step_0200 --env exact_answer --code-version v14
