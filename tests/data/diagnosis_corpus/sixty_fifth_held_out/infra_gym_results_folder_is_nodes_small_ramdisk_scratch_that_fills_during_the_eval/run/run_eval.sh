#!/bin/bash
# weekly eval
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/infra_gym_results_folder_is_nodes_small_ramdisk_scratch_that_fills_during_the_eval/run
df -h results | tail -n 1
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=40951 ++uv_venv_dir=/tmp/ho-infra_gym_results_fo-8dqrsvxr/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
df -h results | tail -n 1
ls -la results
