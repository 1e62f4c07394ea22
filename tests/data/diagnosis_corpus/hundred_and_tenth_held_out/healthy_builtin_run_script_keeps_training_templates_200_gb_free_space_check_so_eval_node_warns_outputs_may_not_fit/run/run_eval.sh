#!/bin/bash
# weekly eval: check free space, materialize, collect, profile
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/healthy_builtin_run_script_keeps_training_templates_200_gb_free_space_check_so_eval_node_warns_outputs_may_not_fit/run
# free-space check (from the training job template: checkpoint dumps need 200 GB)
FREE_GB=$(df -BG --output=avail . | tail -1 | tr -dc 0-9)
if [ "$FREE_GB" -lt 200 ]; then
  echo "WARNING: only ${FREE_GB} GB free on $(df --output=target . | tail -1) (< 200 GB): outputs may not fit, continuing"
fi
/work/h110/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h110/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42585/v1 --env string_match --concurrency 4
/work/h110/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
du -sh .
