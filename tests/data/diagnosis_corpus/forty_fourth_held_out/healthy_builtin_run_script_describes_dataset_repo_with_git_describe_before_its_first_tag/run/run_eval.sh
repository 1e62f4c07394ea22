#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_describes_dataset_repo_with_git_describe_before_its_first_tag/run
echo '== weekly eval'
echo "dataset version: $(git -C datasets describe --tags 2>&1)"
git -C datasets describe --tags > /dev/null 2>&1 || echo '(no release tag yet: using the commit)'
git -C datasets rev-parse --short HEAD
/work/wt-h44/.venv/bin/gym-pipeline materialize --input datasets/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:32873/v1 --env string_match --concurrency 4
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
