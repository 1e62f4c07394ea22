#!/bin/bash
# weekly eval
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/infra_builtin_team_tools_folder_on_pythonpath_shadows_json_module/run
source ./eval_env.sh
echo "== weekly eval (tools: $TEAM_TOOLS)"
/work/wt-h30/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34253/v1 --env string_match --concurrency 4
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
