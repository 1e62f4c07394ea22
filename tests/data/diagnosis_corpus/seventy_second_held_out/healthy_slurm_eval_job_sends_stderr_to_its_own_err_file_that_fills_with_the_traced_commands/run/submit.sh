#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/healthy_slurm_eval_job_sends_stderr_to_its_own_err_file_that_fills_with_the_traced_commands/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
