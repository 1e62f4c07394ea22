#!/bin/bash
# serve.sh: start the model server, sized by the GPUs of the node (8 sequences per GPU, at least 1)
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/throughput_builtin_serve_script_sizes_server_by_gpu_count_probe_that_finds_none/run
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
MAX_SEQS=$(( GPUS > 0 ? GPUS * 8 : 1 ))
echo "== serving with $GPUS GPU(s): max $MAX_SEQS sequences at once"
exec /work/wt-h35/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-throughput_builtin_s-c1gmtige/serve-ready --checkpoint /tmp/ho-throughput_builtin_s-c1gmtige/checkpoints/step_0200 --latency-ms 400 \
  --max-running $MAX_SEQS --max-waiting 2
