#!/bin/bash
# weekly eval
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/throughput_builtin_collect_concurrency_raised_to_thirty_two_past_servers_eight_queue_places_so_429s_exhaust_retries/run
source eval_settings.sh
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39665/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
