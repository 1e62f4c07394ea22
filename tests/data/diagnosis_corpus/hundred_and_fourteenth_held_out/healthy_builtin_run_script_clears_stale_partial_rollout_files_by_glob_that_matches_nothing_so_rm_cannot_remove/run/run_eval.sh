#!/bin/bash
# weekly eval: clean up, materialize, collect, profile
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/healthy_builtin_run_script_clears_stale_partial_rollout_files_by_glob_that_matches_nothing_so_rm_cannot_remove/run
# clear partial files of interrupted runs
rm rollouts*.partial
/work/h114/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h114/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37333/v1 --env string_match --concurrency 4
/work/h114/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
