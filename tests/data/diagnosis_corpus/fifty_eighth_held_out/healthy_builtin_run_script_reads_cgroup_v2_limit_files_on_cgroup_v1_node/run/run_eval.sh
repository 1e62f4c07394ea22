#!/bin/bash
# weekly eval
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/healthy_builtin_run_script_reads_cgroup_v2_limit_files_on_cgroup_v1_node/run
# record the memory limit of the job for the weekly report (cgroup v2 path from the new cluster's docs)
echo "memory limit: $(cat /sys/fs/cgroup/memory.max)"
echo "cpu quota: $(cat /sys/fs/cgroup/cpu.max)"
echo '== weekly eval'
/work/wt-h58/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h58/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41083/v1 --env string_match --concurrency 4
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
