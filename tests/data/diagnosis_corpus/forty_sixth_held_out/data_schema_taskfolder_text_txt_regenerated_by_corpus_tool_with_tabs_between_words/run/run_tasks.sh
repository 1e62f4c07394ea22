#!/bin/bash
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words/run
echo '== weekly taskset run'
head -n 1 tasks/top-word/environment/text.txt | od -c
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39757/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
