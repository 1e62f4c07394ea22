#!/bin/bash
# weekly eval; check the export's bytes first
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_builtin_run_script_previews_dataset_bytes_with_hexdump_of_first_line_that_prints_cut_off_json/run
echo '== first bytes of the dataset (BOM? CRLF?)'
head -c 160 string_match.jsonl | hexdump -C
/work/h107/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h107/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45493/v1 --env string_match --concurrency 4
/work/h107/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
