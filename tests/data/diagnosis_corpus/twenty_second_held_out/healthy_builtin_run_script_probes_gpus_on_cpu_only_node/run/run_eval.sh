#!/bin/bash
# eval of the trivia set (copied from the GPU cluster's scripts)
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_probes_gpus_on_cpu_only_node/run
echo "== hardware on $(hostname)"
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv
python3 -c 'import torch; print("cuda:", torch.cuda.is_available())'
echo "== eval"
/work/wt-h22/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h22/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42653/v1 --env string_match --concurrency 4
/work/wt-h22/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
