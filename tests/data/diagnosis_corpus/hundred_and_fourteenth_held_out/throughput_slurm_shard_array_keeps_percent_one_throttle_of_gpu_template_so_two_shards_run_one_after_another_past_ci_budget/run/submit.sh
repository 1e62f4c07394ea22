#!/bin/bash
# submit.sh: the pre-merge eval step (CI gives it 60 s): both shards as one job array
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/throughput_slurm_shard_array_keeps_percent_one_throttle_of_gpu_template_so_two_shards_run_one_after_another_past_ci_budget/run
BUDGET=60
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted shard array $JOB ($(date +%T))"
for i in $(seq $BUDGET); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  [ $((i % 15)) -eq 0 ] && squeue -j $JOB -o "%i %T %M %r"
  sleep 1
done
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  squeue -j $JOB -o "%i %T %M %r"
  echo "ERROR: eval not finished within the ${BUDGET}s CI budget: cancelling $JOB"
  scancel $JOB
  sleep 2
  STATUS=1
fi
for f in logs/eval_${JOB}_*.log; do echo "== $f"; cat $f; done
wc -l rollouts_shard_*.jsonl
exit ${STATUS:-0}
