#!/bin/bash
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/config_slurm_sbatch_script_saved_with_windows_line_endings/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
