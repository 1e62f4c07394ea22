#!/bin/bash
# model server for the evals
source /work/wt-h21/tests/data/diagnosis_corpus/held_out/throughput_builtin_server_sized_by_debug_serving_env/run/serving.env
/work/wt-h21/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-throughput_builtin_s-tyhtupyx/model_url --checkpoint /tmp/ho-throughput_builtin_s-tyhtupyx/checkpoints/step_0200 --max-running ${MAX_NUM_SEQS:-64} --max-waiting ${MAX_WAITING:-256} --latency-ms 300
