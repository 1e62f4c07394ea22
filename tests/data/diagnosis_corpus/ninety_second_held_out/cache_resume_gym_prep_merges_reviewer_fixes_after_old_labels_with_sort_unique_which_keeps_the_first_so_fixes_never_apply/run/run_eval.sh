#!/bin/bash
# weekly eval: merge the reviewers' fixes, then gym eval run and profile
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/cache_resume_gym_prep_merges_reviewer_fixes_after_old_labels_with_sort_unique_which_keeps_the_first_so_fixes_never_apply/run
bash prep.sh
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=48497 ++uv_venv_dir=/tmp/ho-cache_resume_gym_pre-shxc7mfs/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
