#!/bin/bash
# weekly eval
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/infra_builtin_static_hosts_entry_sends_model_hostname_to_old_node_still_serving/run
echo "== weekly eval of step_0200 at $(getent hosts policy-a100)"
/work/wt-h37/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h37/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://policy-a100:43831/v1 --env string_match --concurrency 4
/work/wt-h37/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
