#!/bin/bash
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/infra_slurm_login_shell_job_script_loses_activated_venv_path/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
