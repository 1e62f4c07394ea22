#!/bin/bash
# CI step: weekly eval (driver in Python dev mode)
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/healthy_builtin_ci_runs_eval_driver_under_python_dev_mode_which_prints_resourcewarning_for_its_unclosed_steps_file/run
/work/h104/.venv/bin/python -X dev eval.py
