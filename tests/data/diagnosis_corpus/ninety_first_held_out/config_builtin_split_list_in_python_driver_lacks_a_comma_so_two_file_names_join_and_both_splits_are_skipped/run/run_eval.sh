#!/bin/bash
# weekly eval of every split
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/config_builtin_split_list_in_python_driver_lacks_a_comma_so_two_file_names_join_and_both_splits_are_skipped/run
ls splits
/work/wt-h91/.venv/bin/python run_splits.py http://127.0.0.1:39491/v1
