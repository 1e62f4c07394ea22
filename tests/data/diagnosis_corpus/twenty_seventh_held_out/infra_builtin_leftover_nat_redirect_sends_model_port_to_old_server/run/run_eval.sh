#!/bin/bash
# weekly eval
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/infra_builtin_leftover_nat_redirect_sends_model_port_to_old_server/run
echo "== weekly eval against http://127.0.0.1:44107/v1"
/work/wt-h27/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h27/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44107/v1 --env string_match --concurrency 4
/work/wt-h27/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
