#!/bin/bash
# submit.sh: the weekly eval as a three-shard array job, then a summary per shard
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/config_slurm_shard_array_spreads_tasks_by_python_hash_of_question_which_each_array_task_salts_differently/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted shard array $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

for k in 0 1 2; do
  echo "== shard $k: $(wc -l < shard_$k/rollouts.jsonl) rollouts"
  cat logs/shard_$k.log
done
echo "rollouts in all: $(cat shard_*/rollouts.jsonl | wc -l)"
