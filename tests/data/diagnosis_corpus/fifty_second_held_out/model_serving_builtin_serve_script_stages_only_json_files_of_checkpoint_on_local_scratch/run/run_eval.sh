#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_stages_only_json_files_of_checkpoint_on_local_scratch/run
echo '== weekly eval'
for i in $(seq 20); do curl -sf http://127.0.0.1:54483/v1/models >/dev/null && break; sleep 1; done
curl -sf http://127.0.0.1:54483/v1/models >/dev/null || echo 'model server not answering after 20 s, going on'
/work/wt-h52/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h52/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:54483/v1 --env string_match --concurrency 4
/work/wt-h52/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
