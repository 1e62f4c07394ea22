#!/bin/bash
# weekly eval
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_scans_kernel_log_for_oom_kills_and_prints_other_jobs_old_ones/run
echo '== weekly eval'
# any OOM kills on this node lately? (for the run notes: other teams' jobs share the node)
dmesg | grep -i 'out of memory' | tail -n 3 || echo '(no OOM kills in the kernel log)'
/work/wt-h47/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h47/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37607/v1 --env string_match --concurrency 4
/work/wt-h47/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
