#!/bin/bash
# weekly eval
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/config_gym_concurrency_read_with_cut_keeps_inline_comment/run
REPEATS=$(grep '^num_repeats' eval.conf | cut -d: -f2)
CONC=$(grep '^concurrency' eval.conf | cut -d: -f2)
echo "== weekly eval: repeats=$REPEATS concurrency=$CONC"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONC ++route_failures_to_sidecar=true ++head_server.port=34435 ++uv_venv_dir=/tmp/ho-config_gym_concurren-jjlk3m_n/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
