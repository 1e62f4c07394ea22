#!/bin/bash
# weekly eval
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_builtin_run_script_sources_conda_hook_of_the_training_image_which_this_eval_node_lacks_so_bash_prints_no_such_file/run
echo '== environment (same preamble as the training jobs)'
source /opt/conda/etc/profile.d/conda.sh && conda activate train || echo 'conda not found: using the eval venv'
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h111/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37599/v1 --env string_match --concurrency 4
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
