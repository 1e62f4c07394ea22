#!/bin/bash
# weekly eval
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_git_pull_moved_data_submodule_pointer_but_checkout_kept_old_labels/run
(cd /tmp/ho-cache_resume_builtin-sn4yja5_/home/evals && git pull && git status --short)
echo '== weekly eval'
/work/wt-h37/.venv/bin/gym-pipeline materialize --input /tmp/ho-cache_resume_builtin-sn4yja5_/home/evals/data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h37/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33887/v1 --env string_match --concurrency 4
/work/wt-h37/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
