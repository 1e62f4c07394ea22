#!/bin/bash
# weekly eval: re-run only when the tasks changed since the last results
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/cache_resume_gym_run_script_skips_eval_when_results_are_newer_than_tasks_but_label_fix_untarred_keeps_its_old_mtime/run
if [ -f label_fix.tar.gz ]; then tar xzvf label_fix.tar.gz; fi   # the data team's label fixes, if any
if [ results/rollouts.jsonl -nt tasks.jsonl ]; then
  echo "results/rollouts.jsonl is newer than tasks.jsonl: eval up to date, skipping gym eval run"
else
  rm -rf results
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=42595 ++uv_venv_dir=/tmp/ho-cache_resume_gym_run-whf5bren/server_venvs ++skip_venv_if_present=true
fi
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
