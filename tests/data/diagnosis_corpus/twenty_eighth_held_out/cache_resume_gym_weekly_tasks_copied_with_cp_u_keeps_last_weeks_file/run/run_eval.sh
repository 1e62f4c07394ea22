#!/bin/bash
# weekly eval
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/cache_resume_gym_weekly_tasks_copied_with_cp_u_keeps_last_weeks_file/run
tar xzf exports/weekly_tasks_w49.tar.gz -C exports/
cp -u -v exports/tasks.jsonl tasks.jsonl
echo "== weekly eval: $(wc -l < tasks.jsonl) tasks"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60871 ++uv_venv_dir=/tmp/ho-cache_resume_gym_wee-2i532zek/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
