#!/bin/bash
# weekly eval
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/infra_builtin_shared_tools_synced_without_exec_bits_first_on_path/run
source ./node_env.sh
ls -l $(type -P -a gym-pipeline 2>/dev/null; echo /tmp/ho-infra_builtin_shared-2lvem01x/shared/team-tools/bin/gym-pipeline) | sort -u
gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38111/v1 --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
