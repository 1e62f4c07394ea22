#!/bin/bash
# weekly eval (banner from my interactive helper)
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_builtin_run_script_banner_styled_with_tput_in_ci_without_term_so_tput_complains_on_every_run/run
echo "$(tput bold)== weekly eval $(date +%F)$(tput sgr0)"
/work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h97/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42357/v1 --env string_match --concurrency 4
/work/h97/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
