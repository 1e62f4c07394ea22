#!/bin/bash
# weekly eval
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_sources_optional_local_overrides_file_absent/run
source ./.env.local || echo '(no local overrides)'
echo '== weekly eval'
/work/wt-h33/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h33/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42303/v1 --env string_match --concurrency 4
/work/wt-h33/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
