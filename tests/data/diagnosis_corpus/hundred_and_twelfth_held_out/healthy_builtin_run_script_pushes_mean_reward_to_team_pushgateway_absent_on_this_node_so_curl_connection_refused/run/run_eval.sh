#!/bin/bash
# weekly eval: materialize, collect, profile, push the summary
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/healthy_builtin_run_script_pushes_mean_reward_to_team_pushgateway_absent_on_this_node_so_curl_connection_refused/run
/work/h112/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h112/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38735/v1 --env string_match --concurrency 4
/work/h112/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
# push the summary to the team's Prometheus pushgateway (dashboards only; optional on nodes without one)
MEAN=$(/work/h112/.venv/bin/python -c "import json; r=[json.loads(l)['reward'] for l in open('rollouts.jsonl')]; print(sum(r)/len(r))")
echo "eval_mean_reward $MEAN" | curl -sS --max-time 5 --data-binary @- http://127.0.0.1:9091/metrics/job/weekly_eval \
  || echo "WARNING: metrics push failed, results are in rollouts.jsonl"
