#!/bin/bash
# weekly eval (settings in eval.ini)
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/config_builtin_python_driver_reads_eval_local_ini_after_eval_ini_and_last_weeks_debugging_override_keeps_repeats_1/run
/work/h106/.venv/bin/python eval.py http://127.0.0.1:33813/v1
