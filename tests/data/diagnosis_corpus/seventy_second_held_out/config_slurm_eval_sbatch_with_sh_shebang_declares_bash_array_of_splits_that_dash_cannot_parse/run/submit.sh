#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/config_slurm_eval_sbatch_with_sh_shebang_declares_bash_array_of_splits_that_dash_cannot_parse/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
