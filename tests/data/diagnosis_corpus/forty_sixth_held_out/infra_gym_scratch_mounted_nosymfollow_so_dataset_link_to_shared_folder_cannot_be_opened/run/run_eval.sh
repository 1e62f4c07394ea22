#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/infra_gym_scratch_mounted_nosymfollow_so_dataset_link_to_shared_folder_cannot_be_opened/run
echo '== weekly eval'
# the tasks from the team's shared datasets folder (a link, as on the workstations: no stale copies)
ln -sfn /tmp/ho-infra_gym_scratch_mo-gkot7zpc/shared/datasets/capitals/tasks.jsonl scratch/tasks.jsonl
ls -l scratch/
wc -l scratch/tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input scratch/tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59055 ++uv_venv_dir=/tmp/ho-infra_gym_scratch_mo-gkot7zpc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
