#!/bin/bash
# weekly eval; endpoint from eval.toml
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/model_serving_builtin_policy_server_started_with_ipv6_loopback_host_from_cluster_template_so_ipv4_eval_url_is_refused/run
MODEL_URL=$(/work/h99/.venv/bin/python -c 'import tomllib; print(tomllib.load(open("eval.toml", "rb"))["eval"]["model_url"])')
echo "== model at $MODEL_URL"
/work/h99/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h99/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/h99/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
