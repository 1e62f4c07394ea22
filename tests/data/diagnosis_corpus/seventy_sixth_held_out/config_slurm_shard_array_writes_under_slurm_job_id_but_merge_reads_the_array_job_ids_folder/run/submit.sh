#!/bin/bash
# submit.sh: split the tasks into 4 shards, evaluate them as one job array, merge the shards and profile the whole
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/config_slurm_shard_array_writes_under_slurm_job_id_but_merge_reads_the_array_job_ids_folder/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished; merging results/$JOB/shard_*"
cat results/$JOB/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/$JOB/shard_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts_materialized_inputs.jsonl rollouts.jsonl
/work/wt-h76/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
