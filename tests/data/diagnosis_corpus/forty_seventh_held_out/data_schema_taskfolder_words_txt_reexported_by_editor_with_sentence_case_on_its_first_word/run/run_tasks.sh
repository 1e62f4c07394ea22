#!/bin/bash
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word/run
echo '== weekly taskset run'
head -n 3 tasks/sort-unique-words/environment/words.txt
echo '== materialize'
/work/wt-h47/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h47/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42541/v1 --model-name sim-policy
echo '== profile'
/work/wt-h47/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h47/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
