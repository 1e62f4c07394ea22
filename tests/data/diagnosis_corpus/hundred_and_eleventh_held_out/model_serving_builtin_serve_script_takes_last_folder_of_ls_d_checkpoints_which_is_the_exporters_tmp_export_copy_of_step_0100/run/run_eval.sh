#!/bin/bash
# weekly eval of step_0200 (served by serve_policy.sh)
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/model_serving_builtin_serve_script_takes_last_folder_of_ls_d_checkpoints_which_is_the_exporters_tmp_export_copy_of_step_0100/run
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h111/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:56707/v1 --env string_match --concurrency 4
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
