#!/bin/bash
# weekly eval (run folder on scratch)
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_builtin_run_folder_on_noexec_scratch_mount/run
echo "== running in $(pwd) on $(findmnt -n -o SOURCE,OPTIONS -T .)"
./prep_data.py raw.jsonl string_match.jsonl
/work/wt-h25/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h25/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42845/v1 --env string_match --concurrency 4
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
