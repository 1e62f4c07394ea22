#!/bin/bash
# weekly eval
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_shows_model_server_journal_on_node_without_systemd_journal/run
journalctl -u policy-server -n 5 --no-pager || echo '(no server journal here)'
echo '== weekly eval'
/work/wt-h38/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33955/v1 --env string_match --concurrency 4
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
