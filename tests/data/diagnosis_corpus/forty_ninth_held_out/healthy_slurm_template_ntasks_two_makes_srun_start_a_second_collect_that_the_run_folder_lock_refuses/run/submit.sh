#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_slurm_template_ntasks_two_makes_srun_start_a_second_collect_that_the_run_folder_lock_refuses/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished: $(sacct -n -X -j $JOB -o state 2>/dev/null | head -n 1)"
