#!/bin/bash
# weekly eval
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/healthy_builtin_run_script_prints_served_model_with_jq_path_of_other_api_so_it_shows_null/run
echo "served model: $(curl -s http://127.0.0.1:40223/v1/models | jq '.models[0].name')"
echo '== weekly eval'
/work/wt-h61/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h61/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40223/v1 --env string_match --concurrency 4
/work/wt-h61/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
