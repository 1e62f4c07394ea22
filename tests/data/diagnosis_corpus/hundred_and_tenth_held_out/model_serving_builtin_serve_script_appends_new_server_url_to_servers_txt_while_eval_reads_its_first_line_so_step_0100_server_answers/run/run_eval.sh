#!/bin/bash
# weekly eval of the newest checkpoint: start its server, materialize, collect, profile
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/model_serving_builtin_serve_script_appends_new_server_url_to_servers_txt_while_eval_reads_its_first_line_so_step_0100_server_answers/run
bash serve.sh ckpts/step_0200
MODEL_URL=$(head -n1 servers.txt)
echo "evaluating $MODEL_URL"
/work/h110/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h110/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/h110/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
