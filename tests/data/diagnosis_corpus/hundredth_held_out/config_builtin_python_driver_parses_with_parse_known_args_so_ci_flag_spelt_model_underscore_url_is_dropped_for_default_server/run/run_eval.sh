#!/bin/bash
# CI step: weekly eval of step_0200 (shared CI flags)
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/config_builtin_python_driver_parses_with_parse_known_args_so_ci_flag_spelt_model_underscore_url_is_dropped_for_default_server/run
/work/h100/.venv/bin/python eval.py --model_url http://127.0.0.1:34713/v1 --repeats 3 --concurrency 4 --shard 0
