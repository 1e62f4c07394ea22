#!/bin/bash
# weekly eval with the nodes' environment
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_builtin_node_env_preloads_jemalloc_that_this_node_lacks_so_every_process_prints_ld_so_cannot_be_preloaded/run
source node_env.sh
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h95/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41141/v1 --env string_match --concurrency 4
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
