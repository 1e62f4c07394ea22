#!/bin/bash
# weekly eval (clears the scratch files of the last run first)
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_cleans_scratch_globs_that_match_nothing/run
rm -r scratch_*/
rm tmp_*.jsonl
echo "== eval"
/work/wt-h23/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h23/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39723/v1 --env string_match --concurrency 4
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
