#!/bin/bash
# weekly eval with our quiz_memo server
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/verifier_runtime_gym_own_verify_memoises_grades_by_answer_text_alone_so_same_answer_to_another_question_reuses_its_grade/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_memo_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-v5hfxvzi/my_gym ++head_server.port=57913 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-v5hfxvzi/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
