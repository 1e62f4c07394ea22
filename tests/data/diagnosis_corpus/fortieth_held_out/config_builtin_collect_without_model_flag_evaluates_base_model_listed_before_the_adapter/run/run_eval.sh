#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/config_builtin_collect_without_model_flag_evaluates_base_model_listed_before_the_adapter/run
# eval of the SFT adapter sft-agent (vLLM, --enable-lora)
echo '== weekly eval of sft-agent'
/work/wt-h40/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h40/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:54991/v1 --env string_match --concurrency 4
/work/wt-h40/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
