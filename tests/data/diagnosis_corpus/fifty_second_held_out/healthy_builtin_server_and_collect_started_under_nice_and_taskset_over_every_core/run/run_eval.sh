#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/healthy_builtin_server_and_collect_started_under_nice_and_taskset_over_every_core/run
echo "== weekly eval on $(nproc) cores"
taskset -pc $$
/work/wt-h52/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
nice -n 10 taskset -c 0,1 /work/wt-h52/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33271/v1 --env string_match --concurrency 4
/work/wt-h52/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
