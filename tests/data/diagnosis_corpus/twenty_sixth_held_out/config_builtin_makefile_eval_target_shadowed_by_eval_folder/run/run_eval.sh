#!/bin/bash
# weekly eval
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/config_builtin_makefile_eval_target_shadowed_by_eval_folder/run
make eval
python3 eval/summarize.py
echo "run_eval.sh: done"
