#!/bin/bash
# weekly eval
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log/run
echo '== weekly eval'
echo "model: $(cat /work/wt-h49/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log/run/model_url.txt)"
/work/wt-h49/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h49/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36749/v1 --env string_match --concurrency 4
/work/wt-h49/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
