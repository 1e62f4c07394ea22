#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/healthy_slurm_shard_array_sized_for_four_shards_gets_three_and_spare_task_has_nothing_to_do/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
