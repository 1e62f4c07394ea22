#!/bin/bash
# ci.sh: the CI job of the weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/config_builtin_ci_script_runs_setup_env_with_bash_instead_of_source_so_its_exports_are_lost/run
bash setup_env.sh
bash run_eval.sh
