#!/bin/bash
# weekly eval of the shared task set (read in place, results in my folder)
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_started_inside_read_only_shared_dataset_folder/run/shared/evals
echo "== eval of $(pwd)/tasks.jsonl"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_started_inside_read_only_shared_dataset_folder/run/results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=36771 ++uv_venv_dir=/tmp/ho-infra_gym_eval_run_s-f3mrsmo6/server_venvs ++skip_venv_if_present=true
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_started_inside_read_only_shared_dataset_folder/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
