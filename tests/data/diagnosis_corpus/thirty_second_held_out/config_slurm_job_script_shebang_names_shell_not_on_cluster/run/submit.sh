#!/bin/bash
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/config_slurm_job_script_shebang_names_shell_not_on_cluster/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
