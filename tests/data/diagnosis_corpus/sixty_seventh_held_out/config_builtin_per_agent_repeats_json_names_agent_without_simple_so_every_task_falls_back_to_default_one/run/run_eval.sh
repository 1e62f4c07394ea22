#!/bin/bash
# weekly eval: variance study (5 repeats per task)
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/config_builtin_per_agent_repeats_json_names_agent_without_simple_so_every_task_falls_back_to_default_one/run
source eval_settings.sh
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats "$REPEATS" --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35517/v1 --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
