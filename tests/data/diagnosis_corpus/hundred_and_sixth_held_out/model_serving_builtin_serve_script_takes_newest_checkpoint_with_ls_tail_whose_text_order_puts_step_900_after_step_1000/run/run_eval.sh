#!/bin/bash
# weekly eval of the newest checkpoint: serve it, materialize, collect, profile
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/model_serving_builtin_serve_script_takes_newest_checkpoint_with_ls_tail_whose_text_order_puts_step_900_after_step_1000/run
bash serve.sh
/work/h106/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h106/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(cat logs/model_url) --env string_match --concurrency 4
/work/h106/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $(cat logs/model_server.pid)
