#!/bin/bash
# ci.sh: the weekly eval job
MODEL_URL=http://127.0.0.1:40571/v1
bash /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_builtin_ci_passes_retired_concurrency_option_last_so_getopts_reports_illegal_option_and_the_run_completes/run/run_eval.sh -r 3 -u "$MODEL_URL" -c 4
