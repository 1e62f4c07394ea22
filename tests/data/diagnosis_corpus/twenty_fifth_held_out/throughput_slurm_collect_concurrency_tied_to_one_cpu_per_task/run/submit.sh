#!/bin/bash
# materialize here, collect in a batch job, profile here
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/throughput_slurm_collect_concurrency_tied_to_one_cpu_per_task/run
/work/wt-h25/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
