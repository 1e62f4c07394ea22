#!/bin/bash
# weekly eval
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_label_fix_left_in_git_stash_eval_ran_on_old_labels/run
(cd /tmp/ho-cache_resume_builtin-06c67e2h/home/evals && git stash && git pull -q && git log --oneline -1)
echo '== weekly eval'
/work/wt-h38/.venv/bin/gym-pipeline materialize --input /tmp/ho-cache_resume_builtin-06c67e2h/home/evals/data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43671/v1 --env string_match --concurrency 4
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
