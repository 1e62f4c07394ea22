#!/bin/bash
# weekly eval through the Makefile
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/healthy_builtin_make_warns_clock_skew_for_dataset_synced_from_share_whose_clock_runs_ahead_yet_builds_every_target/run
make eval MODEL_URL=http://127.0.0.1:40341/v1
