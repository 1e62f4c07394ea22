#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_execs_the_collect_so_the_profile_line_never_runs/run
echo '== nightly eval'
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
exec /work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41239/v1 --env string_match --concurrency 2
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
