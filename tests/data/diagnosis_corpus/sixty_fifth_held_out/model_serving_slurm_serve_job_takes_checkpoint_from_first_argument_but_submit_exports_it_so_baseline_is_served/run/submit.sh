#!/bin/bash
# submit.sh: bring up the model server for this week's checkpoint, then evaluate it
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/model_serving_slurm_serve_job_takes_checkpoint_from_first_argument_but_submit_exports_it_so_baseline_is_served/run
CKPT=/tmp/ho-model_serving_slurm_-qftauo9j/checkpoints/step_0200
rm -f server_url.txt
SERVER=$(sbatch --parsable --export=ALL,CKPT=$CKPT serve.sbatch)
echo $SERVER >> job_ids.txt
echo "model server job $SERVER for $CKPT"
for i in $(seq 90); do [ -s server_url.txt ] && break; sleep 2; done
MODEL_URL=$(cat server_url.txt)
echo "model server up at $MODEL_URL"
/work/wt-h65/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h65/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h65/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

scancel $SERVER
