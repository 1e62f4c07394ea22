#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/cache_resume_gym_weekly_wget_saves_fixed_dataset_as_tasks_jsonl_1_beside_last_weeks_file/run
echo '== weekly eval'
# this week's tasks from the data team's server
wget -nv http://127.0.0.1:43045/capitals/tasks.jsonl
ls -l tasks.jsonl*
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59335 ++uv_venv_dir=/tmp/ho-cache_resume_gym_wee-1rc1cuns/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
