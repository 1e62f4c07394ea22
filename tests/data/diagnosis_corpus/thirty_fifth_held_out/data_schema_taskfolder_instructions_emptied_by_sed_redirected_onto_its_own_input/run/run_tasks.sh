#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h35/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h35/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43829/v1 --model-name sim-policy
echo '== profile'
/work/wt-h35/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
