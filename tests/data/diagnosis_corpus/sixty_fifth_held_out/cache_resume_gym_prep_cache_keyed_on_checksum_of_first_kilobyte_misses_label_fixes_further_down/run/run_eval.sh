#!/bin/bash
# weekly eval of the capitals quiz
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/cache_resume_gym_prep_cache_keyed_on_checksum_of_first_kilobyte_misses_label_fixes_further_down/run
bash prep.sh
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49129 ++uv_venv_dir=/tmp/ho-cache_resume_gym_pre-n2o1jm5m/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
