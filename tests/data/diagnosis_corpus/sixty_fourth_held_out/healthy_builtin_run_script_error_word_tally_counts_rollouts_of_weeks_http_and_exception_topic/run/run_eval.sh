#!/bin/bash
# weekly eval: this week's topic is errors (HTTP status codes, exceptions)
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/healthy_builtin_run_script_error_word_tally_counts_rollouts_of_weeks_http_and_exception_topic/run
/work/wt-h64/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41361/v1 --env string_match --concurrency 4
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== error words in this week's rollouts (release checklist: look at anything non-zero)"
grep -o -i -E 'error|traceback|timeout|refused|503|500|429' rollouts.jsonl | sort | uniq -c | sort -rn
echo "rows with an error word: $(grep -c -i -E 'error|timeout|503|500|429' rollouts.jsonl)"
