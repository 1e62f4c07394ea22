#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/throughput_resources_slurm_job_two_minute_limit_sized_for_nine_task_set_while_set_grew_to_sixty_tasks_so_collect_times_out/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
