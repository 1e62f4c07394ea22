#!/bin/bash
# weekly eval
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_builtin_run_script_keeps_training_jobs_torch_cuda_probe_which_fails_with_modulenotfounderror_on_cpu_eval_node/run
echo '== GPU check (same preamble as the training jobs)'
/work/h109/.venv/bin/python -c 'import torch; print("cuda:", torch.cuda.is_available())' || echo 'torch not importable here: continuing on CPU'
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h109/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40791/v1 --env string_match --concurrency 4
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
