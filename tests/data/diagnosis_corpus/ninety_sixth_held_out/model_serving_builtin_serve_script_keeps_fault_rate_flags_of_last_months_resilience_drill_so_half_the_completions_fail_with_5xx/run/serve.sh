#!/bin/bash
# serve.sh CKPT: our model server for the weekly eval (flags as in the resilience drill of 2026-11-12)
exec /work/h96/.venv/bin/gym-pipeline serve-policy --checkpoint "$1" --port 0 --ready-file /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/model_serving_builtin_serve_script_keeps_fault_rate_flags_of_last_months_resilience_drill_so_half_the_completions_fail_with_5xx/run/model_url.txt --latency-ms 20 \
    --fault-rate 0.5 --fault-kinds 5xx --fault-seed 7
