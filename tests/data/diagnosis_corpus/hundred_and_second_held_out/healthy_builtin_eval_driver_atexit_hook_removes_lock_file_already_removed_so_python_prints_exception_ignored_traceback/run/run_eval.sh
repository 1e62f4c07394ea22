#!/bin/bash
# CI step: weekly eval under the folder lock
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/healthy_builtin_eval_driver_atexit_hook_removes_lock_file_already_removed_so_python_prints_exception_ignored_traceback/run
/work/h102/.venv/bin/python eval.py < steps.txt
