#!/bin/bash
# weekly eval (the previous run's rollouts are kept as rollouts.prev.jsonl)
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_builtin_run_script_rotates_last_runs_rollouts_with_mv_on_the_first_run_of_a_fresh_folder_so_mv_prints_cannot_stat/run
echo '== keeping the previous run'
mv rollouts.jsonl rollouts.prev.jsonl
/work/h113/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h113/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36043/v1 --env string_match --concurrency 4
/work/h113/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo '== eval finished'
