#!/bin/bash
# weekly eval: this week's labelled release, then materialize, collect, profile
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/cache_resume_builtin_run_script_enters_current_release_symlink_before_sync_repoints_it_so_copy_reads_last_weeks_labels/run
SHARE=/tmp/ho-cache_resume_builtin-leol794g/share/quiz
cd $SHARE/current && bash $SHARE/sync_release.sh   # labelled data; refresh it to the newest release first
echo "data from $(pwd) ($(readlink -f $SHARE/current))"
cp string_match.jsonl /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/cache_resume_builtin_run_script_enters_current_release_symlink_before_sync_repoints_it_so_copy_reads_last_weeks_labels/run/string_match.jsonl
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/cache_resume_builtin_run_script_enters_current_release_symlink_before_sync_repoints_it_so_copy_reads_last_weeks_labels/run
/work/wt-h83/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h83/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45861/v1 --env string_match --concurrency 4
/work/wt-h83/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
