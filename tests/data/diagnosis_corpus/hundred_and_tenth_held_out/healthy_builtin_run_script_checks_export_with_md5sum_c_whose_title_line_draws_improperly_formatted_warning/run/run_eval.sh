#!/bin/bash
# weekly eval: check the export, materialize, collect, profile
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/healthy_builtin_run_script_checks_export_with_md5sum_c_whose_title_line_draws_improperly_formatted_warning/run
md5sum -c string_match.md5 || exit 1
/work/h110/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h110/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33059/v1 --env string_match --concurrency 4
/work/h110/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
