#!/bin/bash
# weekly names quiz eval with our word_match server
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/verifier_runtime_gym_own_verify_sorts_the_label_words_but_not_the_answer_words_so_unsorted_names_never_match/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent word_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-xwtm2s7k/my_gym ++head_server.port=47621 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-xwtm2s7k/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
