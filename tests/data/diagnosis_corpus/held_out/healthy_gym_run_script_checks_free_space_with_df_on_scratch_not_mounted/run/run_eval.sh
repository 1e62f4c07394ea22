#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_free_space_with_df_on_scratch_not_mounted/run
echo '== weekly eval'
echo 'scratch space for the results:'
df -h /scratch/$USER | tail -1 || echo 'no /scratch on this node, results stay in the run folder'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49015 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-srd4j4wv/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
