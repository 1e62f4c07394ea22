#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/config_slurm_submit_keeps_dash_j_smoke_eval_of_smoke_pipeline_which_overrides_job_name_directive_so_job_reads_smoke_settings/run
# (from the smoke-test pipeline of the eval repo)
JOB=$(sbatch --parsable -J smoke-eval eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobName=[^ ]*\|JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
