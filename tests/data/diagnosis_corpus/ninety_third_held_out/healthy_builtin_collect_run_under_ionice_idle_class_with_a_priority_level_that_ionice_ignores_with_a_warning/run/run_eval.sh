#!/bin/bash
# weekly eval at idle I/O priority
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_builtin_collect_run_under_ionice_idle_class_with_a_priority_level_that_ionice_ignores_with_a_warning/run
# collect at idle I/O priority, as the node's etiquette page asks for long jobs on the shared disk
/work/h93/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
ionice -c 3 -n 7 /work/h93/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
  --model-url http://127.0.0.1:44061/v1 --env string_match --concurrency 4
echo "collect exit: $?"
/work/h93/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
