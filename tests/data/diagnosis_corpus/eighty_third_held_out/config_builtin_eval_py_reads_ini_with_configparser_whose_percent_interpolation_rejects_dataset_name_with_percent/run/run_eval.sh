#!/bin/bash
# weekly eval: eval.py with the settings of eval.ini
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/config_builtin_eval_py_reads_ini_with_configparser_whose_percent_interpolation_rejects_dataset_name_with_percent/run
/work/wt-h83/.venv/bin/python eval.py
