#!/bin/bash
# weekly eval of checkpoint $1 against the containerized model server
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/model_serving_docker_serve_script_restart_unless_stopped_container_of_last_week_holds_port_so_new_step_exits/run
bash serve.sh $1
for i in $(seq 60); do curl -sf http://127.0.0.1:39661/v1/models > /dev/null && break; sleep 1; done
echo "model server up: $(curl -s http://127.0.0.1:39661/v1/models)"
/work/wt-h64/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39661/v1 --env string_match --concurrency 4
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
