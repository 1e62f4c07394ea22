#!/bin/bash
# weekly eval: every step through the team's sandbox (outside data)
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/infra_builtin_eval_run_through_teams_data_sandbox_wrapper_whose_unshare_net_leaves_no_loopback_so_collect_cannot_reach_the_model/run
curl -s http://127.0.0.1:32963/v1/models >/dev/null && echo 'model server answers'
bash sandbox.sh /work/h96/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
bash sandbox.sh /work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:32963/v1 --env string_match --concurrency 4
bash sandbox.sh /work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
