#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/infra_builtin_site_jobrun_wrapper_gives_eval_a_private_network_namespace_without_the_model_server/run
echo '== weekly eval'
/work/wt-h42/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h42/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40785/v1 --env string_match --concurrency 4
/work/wt-h42/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
