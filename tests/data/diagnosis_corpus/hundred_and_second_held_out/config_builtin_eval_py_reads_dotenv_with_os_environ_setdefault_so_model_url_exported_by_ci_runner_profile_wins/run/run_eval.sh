#!/bin/bash
# CI step: weekly eval of step_0200 (settings in .env)
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/config_builtin_eval_py_reads_dotenv_with_os_environ_setdefault_so_model_url_exported_by_ci_runner_profile_wins/run
source ci/runner_env.sh
/work/h102/.venv/bin/python eval.py
