#!/bin/bash
# ci.sh: the pipeline's variables (repeats left blank in the form)
export EVAL_REPEATS=""
bash /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/config_builtin_run_script_defaults_repeats_with_dash_instead_of_colon_dash_so_empty_ci_variable_passes_empty_value/run/run_eval.sh
