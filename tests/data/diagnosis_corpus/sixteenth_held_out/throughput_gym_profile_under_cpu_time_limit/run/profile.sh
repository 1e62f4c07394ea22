#!/bin/bash
ulimit -t 1
echo "ulimit -t: $(ulimit -t)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs /work/wt-h16/tests/data/diagnosis_corpus/held_out/throughput_gym_profile_under_cpu_time_limit/run/results/rollouts_materialized_inputs.jsonl --rollouts /work/wt-h16/tests/data/diagnosis_corpus/held_out/throughput_gym_profile_under_cpu_time_limit/run/results/rollouts.jsonl
