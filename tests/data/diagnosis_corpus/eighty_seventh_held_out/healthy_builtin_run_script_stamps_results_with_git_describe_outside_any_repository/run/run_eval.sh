#!/bin/bash
# weekly eval, stamped with the eval code's version
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_builtin_run_script_stamps_results_with_git_describe_outside_any_repository/run
echo "eval version: $(git -C /tmp/ho-healthy_builtin_run_-a6t1o4v_/eval_code describe --always --dirty || echo unversioned)"
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h87/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33959/v1 --env string_match --concurrency 4
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
