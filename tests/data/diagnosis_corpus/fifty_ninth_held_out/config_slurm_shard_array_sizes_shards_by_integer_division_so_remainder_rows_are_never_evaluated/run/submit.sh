#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/config_slurm_shard_array_sizes_shards_by_integer_division_so_remainder_rows_are_never_evaluated/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
