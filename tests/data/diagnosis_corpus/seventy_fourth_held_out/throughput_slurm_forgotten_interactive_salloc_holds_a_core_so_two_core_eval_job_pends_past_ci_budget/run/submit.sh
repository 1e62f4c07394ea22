#!/bin/bash
# submit.sh (the CI step): the weekly eval on both cores of the node; the step gives up after 75 s
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/throughput_slurm_forgotten_interactive_salloc_holds_a_core_so_two_core_eval_job_pends_past_ci_budget/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
for i in $(seq 15); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  squeue -h -o '%i %j %T %C %M %r' 2>/dev/null
  sleep 5
done
squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
echo "CI step over"
