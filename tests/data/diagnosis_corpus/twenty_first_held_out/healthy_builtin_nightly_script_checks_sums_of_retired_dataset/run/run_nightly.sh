#!/bin/bash
# nightly eval of the trivia set
cd /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_builtin_nightly_script_checks_sums_of_retired_dataset/run
echo "== checking the datasets"
sha256sum -c SHA256SUMS
echo "== materialize"
/work/wt-h21/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
echo "== collect"
/work/wt-h21/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42501/v1 --env string_match --concurrency 4
echo "== profile"
/work/wt-h21/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
