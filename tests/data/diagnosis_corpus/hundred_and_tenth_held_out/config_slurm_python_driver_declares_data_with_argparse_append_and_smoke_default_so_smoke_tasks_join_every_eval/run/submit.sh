#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/config_slurm_python_driver_declares_data_with_argparse_append_and_smoke_default_so_smoke_tasks_join_every_eval/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
