#!/bin/bash
# eval against the server started by serve.sbatch
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/model_serving_slurm_server_backgrounded_in_batch_job_that_ended/run
MODEL_URL=$(cat model_url.txt)
echo "model server: $MODEL_URL"
/work/wt-h23/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h23/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
