#!/bin/bash
# submit.sh: serve this week's checkpoint, evaluate it, stop the server
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/model_serving_slurm_serve_job_takes_checkpoint_from_ckpt_variable_so_checkpoint_given_as_argument_is_ignored/run
SERVER=$(sbatch --parsable serve.sbatch /tmp/ho-model_serving_slurm_-ts6lsmre/checkpoints/step_0200)
echo $SERVER >> job_ids.txt
echo "model server job $SERVER for /tmp/ho-model_serving_slurm_-ts6lsmre/checkpoints/step_0200"
for i in $(seq 90); do [ -s server_$SERVER.url ] && break; sleep 2; done
MODEL_URL=$(cat server_$SERVER.url)
echo "model server up at $MODEL_URL"
/work/wt-h70/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

scancel $SERVER
