#!/bin/bash
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h41/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h41/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46419/v1 --model-name sim-policy
echo '== profile'
/work/wt-h41/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
