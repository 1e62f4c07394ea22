#!/bin/bash
# weekly eval: eval.py with the settings of eval.ini
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_builtin_eval_py_reads_ini_with_raw_config_parser_so_percent_sign_in_reviewed_dataset_name_stays_literal/run
/work/wt-h83/.venv/bin/python eval.py
