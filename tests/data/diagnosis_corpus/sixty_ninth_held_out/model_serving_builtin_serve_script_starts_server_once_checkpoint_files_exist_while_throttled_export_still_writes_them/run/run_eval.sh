#!/bin/bash
# weekly eval against the served checkpoint
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/model_serving_builtin_serve_script_starts_server_once_checkpoint_files_exist_while_throttled_export_still_writes_them/run
rm -f rollouts.jsonl rollouts_failures.jsonl
echo "served model: $(curl -s http://127.0.0.1:42815/v1/models)"
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42815/v1 --env string_match --concurrency 4
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
