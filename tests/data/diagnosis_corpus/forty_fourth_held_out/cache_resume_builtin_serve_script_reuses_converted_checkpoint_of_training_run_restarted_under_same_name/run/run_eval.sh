#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_serve_script_reuses_converted_checkpoint_of_training_run_restarted_under_same_name/run
echo '== weekly eval of exp7 step_0200'
/work/wt-h44/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:58683/v1 --env string_match --concurrency 4
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
