#!/bin/bash
# eval of every split
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/throughput_builtin_makeflags_from_build_settings_runs_split_collects_at_once/run
source build_env.sh
make -k all
echo "run_eval.sh: make exited $?"
