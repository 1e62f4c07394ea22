#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_run_script_updates_eval_checkout_with_git_fetch_only/run
(cd /tmp/ho-cache_resume_builtin-8nt086pf/home/evals && git fetch && git log --oneline -1 origin/main)
echo '== weekly eval'
/work/wt-h39/.venv/bin/gym-pipeline materialize --input /tmp/ho-cache_resume_builtin-8nt086pf/home/evals/data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45125/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
