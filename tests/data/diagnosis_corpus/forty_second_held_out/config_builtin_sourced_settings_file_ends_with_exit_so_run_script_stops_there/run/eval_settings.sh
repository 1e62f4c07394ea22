#!/bin/bash
# eval_settings.sh: settings of the weekly eval (was a standalone script that printed them; now sourced)
EVAL_DATA=string_match.jsonl
EVAL_REPEATS=3
EVAL_CONCURRENCY=4
echo "settings: data=$EVAL_DATA repeats=$EVAL_REPEATS concurrency=$EVAL_CONCURRENCY"
exit 0
