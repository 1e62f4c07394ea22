#!/bin/bash
# weekly eval
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/healthy_gym_run_script_sizes_ray_session_logs_under_default_tmp_ray_while_ray_tmpdir_points_elsewhere/run
# how big Ray's session logs grow (the team's disk-usage note asks for it)
du -sh /tmp/ray/session_latest/logs || echo 'note: no Ray session under /tmp/ray'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=50447 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-4tw6qtzv/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
