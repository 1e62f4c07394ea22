#!/bin/bash
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/config_slurm_chdir_directive_with_tilde_not_expanded/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
