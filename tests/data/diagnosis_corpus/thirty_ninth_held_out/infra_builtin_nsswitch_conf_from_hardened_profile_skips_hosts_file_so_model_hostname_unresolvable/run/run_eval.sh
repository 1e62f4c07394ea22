#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/infra_builtin_nsswitch_conf_from_hardened_profile_skips_hosts_file_so_model_hostname_unresolvable/run
echo "== weekly eval; model server: $(grep policy-node /etc/hosts)"
getent hosts policy-node || echo 'policy-node: no address from getent'
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://policy-node:36701/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
