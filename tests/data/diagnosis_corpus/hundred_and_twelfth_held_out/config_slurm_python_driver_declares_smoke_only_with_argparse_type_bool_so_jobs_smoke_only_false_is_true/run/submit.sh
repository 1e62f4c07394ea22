#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/config_slurm_python_driver_declares_smoke_only_with_argparse_type_bool_so_jobs_smoke_only_false_is_true/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
