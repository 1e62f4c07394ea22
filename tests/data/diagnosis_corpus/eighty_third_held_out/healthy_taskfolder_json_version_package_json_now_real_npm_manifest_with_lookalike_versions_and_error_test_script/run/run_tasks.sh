#!/bin/bash
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script/run
echo '== manifest of json-version'
cat tasks/json-version/environment/package.json
echo '== materialize'
/work/wt-h83/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h83/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44969/v1 --model-name sim-policy
echo '== profile'
/work/wt-h83/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
