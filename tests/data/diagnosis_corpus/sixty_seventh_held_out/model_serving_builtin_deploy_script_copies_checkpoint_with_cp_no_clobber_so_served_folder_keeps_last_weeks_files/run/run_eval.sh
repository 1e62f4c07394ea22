#!/bin/bash
# weekly eval against the model server on the serving disk (its URL is the first argument)
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/model_serving_builtin_deploy_script_copies_checkpoint_with_cp_no_clobber_so_served_folder_keeps_last_weeks_files/run
URL=$1
echo "served model: $(curl -s $URL/models)"
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
