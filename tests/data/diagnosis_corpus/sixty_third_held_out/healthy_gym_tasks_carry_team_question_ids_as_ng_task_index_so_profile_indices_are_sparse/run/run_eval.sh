#!/bin/bash
# weekly eval of the question-bank export
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/healthy_gym_tasks_carry_team_question_ids_as_ng_task_index_so_profile_indices_are_sparse/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51695 ++uv_venv_dir=/tmp/ho-healthy_gym_tasks_ca-7o7h7xav/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
