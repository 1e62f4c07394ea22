#!/bin/bash
# submit.sh: the weekly sharded eval (the array size goes with the number of shards, so it is given here)
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/config_slurm_submit_gives_array_option_after_script_name_so_sbatch_passes_it_to_the_script_and_one_job_runs/run
JOB=$(sbatch --parsable eval.sbatch --array=0-3)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
ls -d shard_*/
