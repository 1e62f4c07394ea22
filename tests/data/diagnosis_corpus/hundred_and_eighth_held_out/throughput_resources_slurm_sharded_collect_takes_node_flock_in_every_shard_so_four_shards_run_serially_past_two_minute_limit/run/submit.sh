#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/throughput_resources_slurm_sharded_collect_takes_node_flock_in_every_shard_so_four_shards_run_serially_past_two_minute_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
