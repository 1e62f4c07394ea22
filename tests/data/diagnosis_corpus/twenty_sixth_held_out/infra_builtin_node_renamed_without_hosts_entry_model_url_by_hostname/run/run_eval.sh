#!/bin/bash
# weekly eval; the model server runs on this node and is reached by the node's name (as serve.sh prints it)
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/infra_builtin_node_renamed_without_hosts_entry_model_url_by_hostname/run
MODEL_URL=http://$(hostname):38723/v1
echo "== model server at $MODEL_URL"
/work/wt-h26/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h26/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \
  --env string_match --concurrency 4
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
