#!/bin/bash
# weekly eval of this week's server
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/config_builtin_python_driver_merges_team_defaults_after_the_users_settings_so_staging_url_and_one_repeat_win/run
cat eval_settings.json
/work/h93/.venv/bin/python run_eval.py
