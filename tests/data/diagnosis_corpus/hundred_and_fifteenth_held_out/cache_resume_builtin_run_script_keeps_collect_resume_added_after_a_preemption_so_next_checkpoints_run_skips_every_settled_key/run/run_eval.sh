#!/bin/bash
# weekly eval (collect resumes if the job was preempted)
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/cache_resume_builtin_run_script_keeps_collect_resume_added_after_a_preemption_so_next_checkpoints_run_skips_every_settled_key/run
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h115/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38855/v1 --env string_match --concurrency 4 --resume
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
