#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_picks_checkpoint_by_modification_time_after_mirror_recopied_older_step/run
echo '== weekly eval of step_0200 (last step of the run)'
echo step_0200 > evaluated_checkpoint.txt
/work/wt-h52/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h52/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46435/v1 --env string_match --concurrency 4
/work/wt-h52/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
