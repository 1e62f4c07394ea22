#!/bin/bash
# weekly eval; note free space first
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_builtin_run_script_reports_free_space_with_df_of_scratch_mount_absent_on_this_node/run
echo '== free space (scratch is where the big runs go)'
df -h /scratch/evals "$PWD"
/work/h105/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h105/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45879/v1 --env string_match --concurrency 4
/work/h105/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
