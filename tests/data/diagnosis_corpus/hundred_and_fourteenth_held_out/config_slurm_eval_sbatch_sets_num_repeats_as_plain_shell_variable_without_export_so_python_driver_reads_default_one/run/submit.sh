#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/config_slurm_eval_sbatch_sets_num_repeats_as_plain_shell_variable_without_export_so_python_driver_reads_default_one/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
