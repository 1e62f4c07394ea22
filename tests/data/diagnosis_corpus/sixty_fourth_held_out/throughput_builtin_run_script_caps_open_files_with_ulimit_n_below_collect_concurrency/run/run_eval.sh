#!/bin/bash
# weekly eval (8 repeats for the variance report), all rollouts in flight at once
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/throughput_builtin_run_script_caps_open_files_with_ulimit_n_below_collect_concurrency/run
ulimit -n 32   # shared-node hardening guide: at most 32 open files per job
/work/wt-h64/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 8 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34571/v1 --env string_match --concurrency 96
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
