#!/bin/bash
# weekly eval
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/healthy_builtin_run_script_checks_data_with_sha256sum_list_still_naming_retired_split/run
# the data must be the reviewed export
sha256sum -c SHA256SUMS || echo 'checksums: see above'
echo '== weekly eval'
/work/wt-h58/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h58/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45613/v1 --env string_match --concurrency 4
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
