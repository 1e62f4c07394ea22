#!/bin/bash
# weekly eval
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/infra_builtin_stale_bind_mount_shadows_shared_dataset_folder_with_last_months_copy/run
echo "== weekly eval of $(ls -l /tmp/ho-infra_builtin_stale_-xtx28jj3/shared/evals/string_match.jsonl)"
/work/wt-h38/.venv/bin/gym-pipeline materialize --input /tmp/ho-infra_builtin_stale_-xtx28jj3/shared/evals/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42441/v1 --env string_match --concurrency 4
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
