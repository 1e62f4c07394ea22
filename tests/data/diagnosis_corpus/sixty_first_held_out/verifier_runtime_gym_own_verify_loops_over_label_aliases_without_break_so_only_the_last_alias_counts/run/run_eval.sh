#!/bin/bash
# weekly eval with our alias_match server
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/verifier_runtime_gym_own_verify_loops_over_label_aliases_without_break_so_only_the_last_alias_counts/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent alias_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-ti7xwdws/my_gym ++head_server.port=57823 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-ti7xwdws/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
