#!/bin/bash
# team_prolog.sh: the team's srun task prolog (GPU cluster template): each `export`/`print` line applies to the task
echo "print [team prolog] task $SLURM_PROCID of job $SLURM_JOB_ID on $(hostname)"
if ! command -v nvidia-smi >/dev/null; then echo "print [team prolog] nvidia-smi not found: GPU clocks not pinned"; fi
echo "export OMP_NUM_THREADS=1"
echo "export TOKENIZERS_PARALLELISM=false"
