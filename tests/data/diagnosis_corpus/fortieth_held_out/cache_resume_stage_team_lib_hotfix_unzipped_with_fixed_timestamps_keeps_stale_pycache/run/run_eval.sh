#!/bin/bash
# weekly eval of the numeric set (verifier: verifiers/my_verifier.py)
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache/run
export PYTHONPATH=$PWD/team-libs${PYTHONPATH:+:$PYTHONPATH}
python3 -c 'import evalutils; print("evalutils", evalutils.__version__)'
echo '== materialize'
/work/wt-h40/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache/run/sweep.yaml --checkpoint step_0100 --env exact_answer --code-version v14
echo '== collect'
/work/wt-h40/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache/run/sweep.yaml --checkpoint step_0100 --env exact_answer --code-version v14 --model-url http://127.0.0.1:32979/v1 --model-name sim-policy
echo '== profile'
/work/wt-h40/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache/run/sweep.yaml --checkpoint step_0100 --env exact_answer --code-version v14
