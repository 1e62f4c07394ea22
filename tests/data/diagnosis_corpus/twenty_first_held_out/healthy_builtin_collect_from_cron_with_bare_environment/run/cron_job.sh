#!/bin/bash
# crontab: 15 2 * * * bash cron_job.sh >> logs/cron.log 2>&1
source ~/.bashrc
echo "$(date -u +%FT%TZ) nightly eval, terminal width $(tput cols)"
cd /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_builtin_collect_from_cron_with_bare_environment/run
/work/wt-h21/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h21/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35189/v1 --env string_match --concurrency 3
/work/wt-h21/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "done: $(wc -l < rollouts.jsonl) rollouts"
