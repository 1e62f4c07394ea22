#!/bin/bash
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_file_reexported_with_trailing_spaces/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h30/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_file_reexported_with_trailing_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h30/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_file_reexported_with_trailing_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39597/v1 --model-name sim-policy
echo '== profile'
/work/wt-h30/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_file_reexported_with_trailing_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
