#!/bin/bash
# weekly eval
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/throughput_builtin_run_script_sets_collect_concurrency_to_rollout_count_from_wc_l_so_server_queue_overflows/run
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# one request in flight per rollout: the server queues what it cannot run yet
CONCURRENCY=$(wc -l < rollouts_materialized_inputs.jsonl)
echo "concurrency: $CONCURRENCY"
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39875/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
