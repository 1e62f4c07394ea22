#!/bin/bash
# submit.sh: split the set into shards of 16 rows, submit one array task per shard, wait for the array
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/healthy_slurm_eval_submitted_as_array_of_a_single_task_so_job_and_log_names_carry_underscore_zero/run
mkdir -p shards && rm -f shards/*
split -l 16 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted array job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 3; done
echo "array job $JOB finished"
ls logs
