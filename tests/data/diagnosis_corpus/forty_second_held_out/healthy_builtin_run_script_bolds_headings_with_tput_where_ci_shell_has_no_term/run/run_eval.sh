#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_bolds_headings_with_tput_where_ci_shell_has_no_term/run
bold=$(tput bold); plain=$(tput sgr0)
echo "${bold}== weekly eval of $(date +%F)${plain}"
/work/wt-h42/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h42/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42663/v1 --env string_match --concurrency 4
/work/wt-h42/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
