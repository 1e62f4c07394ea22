#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/healthy_slurm_eval_job_with_export_none_sets_its_whole_environment_from_settings_file_in_run_folder/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
