#!/bin/bash
# weekly eval through the Makefile
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/healthy_builtin_makefile_forces_j4_on_collect_sub_make_so_make_warns_it_resets_jobserver_mode_yet_builds_everything/run
make -j2 eval MODEL_URL=http://127.0.0.1:36071/v1
