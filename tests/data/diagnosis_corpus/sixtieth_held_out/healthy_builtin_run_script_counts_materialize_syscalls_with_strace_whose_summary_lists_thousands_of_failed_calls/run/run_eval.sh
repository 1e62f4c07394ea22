#!/bin/bash
# weekly eval; the materialize step is traced for the storage team's file-operations survey
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_builtin_run_script_counts_materialize_syscalls_with_strace_whose_summary_lists_thousands_of_failed_calls/run
strace -f -c -o strace_materialize.txt /work/wt-h60/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
echo '== syscalls of materialize'
cat strace_materialize.txt
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40509/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
