#!/bin/bash
# weekly eval against the model server on the serving disk (its URL is the first argument)
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/model_serving_builtin_deploy_script_cp_r_nests_new_checkpoint_inside_served_folder_so_old_weights_are_served/run
URL=$1
echo "served model: $(curl -s $URL/models)"
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
