#!/bin/bash
# weekly eval: update the dataset checkout, then materialize, collect, profile
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/cache_resume_builtin_git_pull_of_dataset_repo_refused_by_uncommitted_hotfix_on_ci_box_so_last_weeks_labels_are_used/run
CHECKOUT=/tmp/ho-cache_resume_builtin-y9zauk8_/ci_workspace/datasets
(cd $CHECKOUT && git pull --ff-only origin main)
cp $CHECKOUT/string_match.jsonl string_match.jsonl
/work/wt-h89/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h89/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39329/v1 --env string_match --concurrency 4
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
