#!/bin/bash
# weekly eval
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_mails_summary_without_mail_client/run
echo "== weekly eval, $(date)"
/work/wt-h29/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39245/v1 --env string_match --concurrency 4
/work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
mail -s 'weekly eval' eval-team@example.org < rollouts_reward_profiling.jsonl || echo 'could not mail the summary'
