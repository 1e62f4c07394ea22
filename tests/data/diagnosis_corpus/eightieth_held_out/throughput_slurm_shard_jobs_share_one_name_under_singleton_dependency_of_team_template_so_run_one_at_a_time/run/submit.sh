#!/bin/bash
# submit.sh (CI step, 50 s budget): one job per shard so the shards run side by side on the node's two cores
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/throughput_slurm_shard_jobs_share_one_name_under_singleton_dependency_of_team_template_so_run_one_at_a_time/run
split -l 3 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
for i in 0 1 2 3; do
  JOB=$(sbatch --parsable --export=ALL,SHARD_ID=$i eval.sbatch)
  echo $JOB >> job_ids.txt
  echo "shard $i: job $JOB"
done
LEFT=4
for t in $(seq 1 25); do
  [ $t -eq 3 ] && squeue -u $(id -un) -n weekly-eval -o "%.8i %.12j %.8T %.6M %r"
  LEFT=$(squeue -h -u $(id -un) -n weekly-eval | wc -l)
  [ $LEFT -eq 0 ] && break
  sleep 2
done
if [ $LEFT -gt 0 ]; then
  squeue -u $(id -un) -n weekly-eval -o "%.8i %.12j %.8T %.6M %r"
  echo "CI budget used up with $LEFT shard jobs unfinished: cancelling them"
  scancel -u $(id -un) -n weekly-eval
  exit 1
fi
cat results/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/shard_*/rollouts.jsonl > rollouts.jsonl
/work/wt-h80/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
