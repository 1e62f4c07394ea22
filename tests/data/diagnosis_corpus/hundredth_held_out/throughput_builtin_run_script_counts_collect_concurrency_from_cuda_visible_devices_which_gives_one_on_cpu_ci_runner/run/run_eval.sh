#!/bin/bash
# CI step: weekly eval (materialize, collect within the step budget, profile)
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/throughput_builtin_run_script_counts_collect_concurrency_from_cuda_visible_devices_which_gives_one_on_cpu_ci_runner/run
# one request in flight per GPU of the node (the eval runner used to be a GPU box)
CONC=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | wc -l)
echo "collect concurrency $CONC (CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES')"
/work/h100/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout 25 /work/h100/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36961/v1 --env string_match --concurrency $CONC || echo "collect step stopped (exit $?)"
wc -l rollouts.jsonl
/work/h100/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
