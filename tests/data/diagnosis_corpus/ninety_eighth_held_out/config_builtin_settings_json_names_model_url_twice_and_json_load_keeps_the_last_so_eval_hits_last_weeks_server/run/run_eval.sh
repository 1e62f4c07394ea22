#!/bin/bash
# weekly eval of step_0200 (settings.json)
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/config_builtin_settings_json_names_model_url_twice_and_json_load_keeps_the_last_so_eval_hits_last_weeks_server/run
/work/h98/.venv/bin/python eval.py settings.json
