#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instruction_resaved_as_utf16_by_editor/run
file tasks/*/instruction.md || true
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h33/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instruction_resaved_as_utf16_by_editor/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h33/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instruction_resaved_as_utf16_by_editor/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44515/v1 --model-name sim-policy
echo '== profile'
/work/wt-h33/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instruction_resaved_as_utf16_by_editor/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
