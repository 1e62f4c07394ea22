#!/bin/bash
# weekly eval of the test split
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_sources_settings_by_bare_name_and_bash_finds_team_tools_copy_on_path/run
export PATH=/tmp/ho-config_builtin_run_s-7fowp19k/opt/team-tools/bin:$PATH   # team-notify, run-smoke
source settings.env
echo "== weekly eval: $DATA, $REPEATS repeats"
/work/wt-h40/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h40/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36175/v1 \
  --env string_match --concurrency 4
/work/wt-h40/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
team-notify "weekly eval done: $(wc -l < rollouts.jsonl) rollouts"
