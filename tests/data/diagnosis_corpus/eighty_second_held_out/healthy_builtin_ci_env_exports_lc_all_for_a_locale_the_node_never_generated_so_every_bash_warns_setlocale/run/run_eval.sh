#!/bin/bash
# weekly eval in CI (team settings in ci.env)
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/healthy_builtin_ci_env_exports_lc_all_for_a_locale_the_node_never_generated_so_every_bash_warns_setlocale/run
source ci.env
locale
bash steps.sh
