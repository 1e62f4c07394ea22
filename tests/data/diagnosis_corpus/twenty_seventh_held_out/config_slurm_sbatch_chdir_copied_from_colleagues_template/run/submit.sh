#!/bin/bash
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/config_slurm_sbatch_chdir_copied_from_colleagues_template/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
