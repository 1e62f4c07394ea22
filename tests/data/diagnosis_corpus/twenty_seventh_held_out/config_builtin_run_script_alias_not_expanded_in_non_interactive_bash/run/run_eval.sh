#!/bin/bash
# weekly eval; gp is the pipeline's CLI from the project's venv (as in my .bashrc)
alias gp='/work/wt-h27/.venv/bin/gym-pipeline'
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_alias_not_expanded_in_non_interactive_bash/run
echo "== weekly eval"
gp materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
gp collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36293/v1 --env string_match --concurrency 4
gp profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
