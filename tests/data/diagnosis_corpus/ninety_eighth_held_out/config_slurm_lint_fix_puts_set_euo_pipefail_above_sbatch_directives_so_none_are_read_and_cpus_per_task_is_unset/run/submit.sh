#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/config_slurm_lint_fix_puts_set_euo_pipefail_above_sbatch_directives_so_none_are_read_and_cpus_per_task_is_unset/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]*' || true
ls
