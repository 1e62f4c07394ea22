#!/bin/bash
# weekly report: profile the eval folder (--allow-partial: preempted runs are common, report what finished)
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_rollouts_filtered_in_place_for_sft_then_profiled_with_allow_partial/run
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl --allow-partial
