#!/bin/bash
# weekly eval against the policy server in $TMPDIR/policy_url
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/model_serving_gym_serve_script_ready_file_at_fixed_node_tmp_path_overwritten_by_colleagues_server_on_same_node/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=54587 ++uv_venv_dir=/tmp/ho-model_serving_gym_se-kl4l2dbw/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
