#!/bin/bash
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark/run
echo '== weekly taskset run'
head -c 16 tasks/sort-unique-words/environment/words.txt | od -c
echo '== materialize'
/work/wt-h45/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h45/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39235/v1 --model-name sim-policy
echo '== profile'
/work/wt-h45/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
