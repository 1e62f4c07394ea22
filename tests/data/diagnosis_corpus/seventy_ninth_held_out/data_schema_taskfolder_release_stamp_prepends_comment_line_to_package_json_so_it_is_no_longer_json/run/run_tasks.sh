#!/bin/bash
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json/run
/work/wt-h79/.venv/bin/python release_stamp.py tasks/json-version/environment/package.json
echo '== materialize'
/work/wt-h79/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h79/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38211/v1 --model-name sim-policy
echo '== profile'
/work/wt-h79/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
