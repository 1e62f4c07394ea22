#!/bin/bash
# weekly job: the full eval (smoke off)
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/config_builtin_python_wrapper_declares_smoke_flag_with_argparse_type_bool_so_smoke_false_turns_it_on/run
/work/wt-h55/.venv/bin/python run_eval.py --model-url http://127.0.0.1:45815/v1 --data string_match.jsonl --smoke False
