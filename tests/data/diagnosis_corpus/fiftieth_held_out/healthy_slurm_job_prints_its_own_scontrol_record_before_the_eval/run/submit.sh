#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_prints_its_own_scontrol_record_before_the_eval/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
