#!/bin/bash
# profile the newest run
cd /work/wt-h19/tests/data/diagnosis_corpus/held_out/cache_resume_gym_profile_script_picks_last_weeks_run_by_name_sort/run
latest=$(ls -d results/run_* | tail -1)
echo "profiling $latest"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs $latest/rollouts_materialized_inputs.jsonl --rollouts $latest/rollouts.jsonl
