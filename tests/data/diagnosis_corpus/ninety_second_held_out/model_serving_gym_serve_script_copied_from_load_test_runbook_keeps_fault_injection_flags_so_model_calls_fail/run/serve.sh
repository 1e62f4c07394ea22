#!/bin/bash
# serve.sh: serve this week's checkpoint for the eval
# (command line taken from the serving runbook, section "load test: does the client survive a flaky server")
exec /work/h92/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/model_serving_gym_serve_script_copied_from_load_test_runbook_keeps_fault_injection_flags_so_model_calls_fail/run/server_url.txt --checkpoint /tmp/ho-model_serving_gym_se-n9_wf91f/checkpoints/step_0200 --latency-ms 30 \
  --fault-rate 0.7 --fault-kinds 5xx,drop --fault-seed 11
