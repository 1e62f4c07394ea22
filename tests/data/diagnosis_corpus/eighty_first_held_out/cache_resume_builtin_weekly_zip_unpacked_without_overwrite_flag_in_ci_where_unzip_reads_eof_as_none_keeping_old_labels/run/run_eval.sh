#!/bin/bash
# weekly eval: unpack this week's drop, then materialize, collect, profile
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/cache_resume_builtin_weekly_zip_unpacked_without_overwrite_flag_in_ci_where_unzip_reads_eof_as_none_keeping_old_labels/run
unzip /tmp/ho-cache_resume_builtin-lq37lr71/share/drops/quiz_current.zip -d data
echo "unzip exit $?"
/work/wt-h81/.venv/bin/gym-pipeline materialize --input data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h81/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41579/v1 --env string_match --concurrency 4
/work/wt-h81/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
