#!/bin/bash
# weekly eval; tells the team channel when it is done
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_posts_done_notification_to_closed_webhook_port/run
/work/wt-h25/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h25/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42409/v1 --env string_match --concurrency 4
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== notifying the team channel"
curl -sS -X POST -d '{"text": "weekly eval done"}' http://127.0.0.1:54585/hooks/eval-done
