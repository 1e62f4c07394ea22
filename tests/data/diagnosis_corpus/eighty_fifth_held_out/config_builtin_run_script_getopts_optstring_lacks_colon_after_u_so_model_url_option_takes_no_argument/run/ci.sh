#!/bin/bash
# ci.sh: the weekly eval job
MODEL_URL=http://127.0.0.1:36177/v1
bash /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/config_builtin_run_script_getopts_optstring_lacks_colon_after_u_so_model_url_option_takes_no_argument/run/run_eval.sh -r 3 -u "$MODEL_URL"
