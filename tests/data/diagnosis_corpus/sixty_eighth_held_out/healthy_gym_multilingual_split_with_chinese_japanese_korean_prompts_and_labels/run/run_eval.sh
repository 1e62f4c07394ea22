#!/bin/bash
# monthly eval of the multilingual (CJK) split
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/healthy_gym_multilingual_split_with_chinese_japanese_korean_prompts_and_labels/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=33891 ++uv_venv_dir=/tmp/ho-healthy_gym_multilin-4_0w77t3/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
