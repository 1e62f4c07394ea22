#!/bin/bash
# submit.sh: the weekly eval, with this week's model server passed to the job
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/config_slurm_submit_exports_only_model_url_to_the_job_so_the_venvs_path_is_not_propagated/run
echo "submitting from $(command -v gym-pipeline)"
JOB=$(sbatch --parsable --export=MODEL_URL=http://127.0.0.1:37785/v1 eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
