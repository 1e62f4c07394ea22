#!/bin/bash
# weekly eval: point current.jsonl at this week's export, materialize, collect, profile
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/cache_resume_builtin_run_script_points_current_link_at_this_weeks_export_with_ln_s_without_f_which_refuses_and_keeps_last_weeks/run
# current.jsonl: this week's export
ln -s string_match_2026-W49.jsonl current.jsonl
echo "evaluating $(readlink current.jsonl)"
/work/h94/.venv/bin/gym-pipeline materialize --input current.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h94/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39471/v1 --env string_match --concurrency 4
/work/h94/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
