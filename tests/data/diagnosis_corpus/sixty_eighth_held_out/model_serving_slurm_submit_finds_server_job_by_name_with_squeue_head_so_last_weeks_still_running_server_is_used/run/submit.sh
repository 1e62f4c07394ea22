#!/bin/bash
# submit.sh: bring up the model server for this week's checkpoint, then evaluate it
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/model_serving_slurm_submit_finds_server_job_by_name_with_squeue_head_so_last_weeks_still_running_server_is_used/run
sbatch --parsable serve.sbatch /tmp/ho-model_serving_slurm_-p1053p5y/checkpoints/step_0200 >> job_ids.txt
# find our model server job and its URL file
SERVER=$(squeue -h --me -n serve-policy -o %i -S i | head -1)
echo "model server job: $SERVER"
for i in $(seq 90); do [ -s server_$SERVER.url ] && break; sleep 2; done
MODEL_URL=$(cat server_$SERVER.url)
echo "model server up at $MODEL_URL"
/work/wt-h68/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h68/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h68/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

