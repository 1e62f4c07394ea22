#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package/run
echo '== weekly eval'
/work/wt-h46/.venv/bin/python -m pip install --no-index --target vendor wheels/team_grading-1.0.1-py3-none-any.whl
/work/wt-h46/.venv/bin/python -c 'import sys; sys.path.insert(0, "vendor"); import team_grading; print("team_grading", team_grading.__version__)'
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:43493/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
