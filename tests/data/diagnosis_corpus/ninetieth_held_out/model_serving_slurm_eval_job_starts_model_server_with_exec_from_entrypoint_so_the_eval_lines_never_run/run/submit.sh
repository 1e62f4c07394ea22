#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/model_serving_slurm_eval_job_starts_model_server_with_exec_from_entrypoint_so_the_eval_lines_never_run/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 200 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"
scontrol show job $JOB 2>/dev/null | grep -E "JobState|RunTime|TimeLimit"

cat logs/eval_$JOB.log
