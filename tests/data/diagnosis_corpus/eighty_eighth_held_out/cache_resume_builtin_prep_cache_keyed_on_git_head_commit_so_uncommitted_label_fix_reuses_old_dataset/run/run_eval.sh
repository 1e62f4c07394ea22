#!/bin/bash
# weekly eval: data step (cached per commit), then materialize, collect, profile
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/cache_resume_builtin_prep_cache_keyed_on_git_head_commit_so_uncommitted_label_fix_reuses_old_dataset/run
bash /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/cache_resume_builtin_prep_cache_keyed_on_git_head_commit_so_uncommitted_label_fix_reuses_old_dataset/run/prep_data.sh /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/cache_resume_builtin_prep_cache_keyed_on_git_head_commit_so_uncommitted_label_fix_reuses_old_dataset/run
git -C /tmp/ho-cache_resume_builtin-4kxxvf2g/home/evals log --oneline -1
/work/wt-h88/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h88/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36781/v1 --env string_match --concurrency 4
/work/wt-h88/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
