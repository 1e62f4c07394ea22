#!/bin/bash
# submit.sh: split the tasks into 4 shards, evaluate them as one job array, merge the shards and profile the whole
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/config_slurm_submit_keeps_array_zero_on_sbatch_command_line_which_overrides_the_scripts_array_directive/run
SBATCH_ARGS="--parsable --array=0"   # trying the array on the new cluster
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
JOB=$(sbatch $SBATCH_ARGS eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted job array $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished; merging results/shard_*"
cat results/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/shard_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts_materialized_inputs.jsonl rollouts.jsonl
/work/wt-h80/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
