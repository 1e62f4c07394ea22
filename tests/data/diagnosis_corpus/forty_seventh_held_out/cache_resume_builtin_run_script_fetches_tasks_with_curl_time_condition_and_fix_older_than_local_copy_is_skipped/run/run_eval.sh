#!/bin/bash
# weekly eval
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_run_script_fetches_tasks_with_curl_time_condition_and_fix_older_than_local_copy_is_skipped/run
echo '== weekly eval'
# fetch the tasks from the data team's server, only when they changed (saves the transfer of big sets)
curl -sS -f -z string_match.jsonl -o string_match.jsonl -w 'fetch: HTTP %{http_code}\n' http://127.0.0.1:40211/string_match.jsonl
echo "$(wc -l < string_match.jsonl) tasks"
/work/wt-h47/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h47/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46613/v1 --env string_match --concurrency 4
/work/wt-h47/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
