#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_sets_cpu_governor_where_sysfs_is_read_only/run
# steadier timings: the performance governor (needs a node that lets us set it)
echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor > /dev/null || echo 'could not set the CPU governor, going on'
echo '== weekly eval'
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46573/v1 --env string_match --concurrency 4
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
