#!/bin/bash
# final numbers for the release notes: the held-out test split
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/config_builtin_split_argument_capitalized_falls_to_dev_default/run
echo "release_eval.sh: evaluating the test split"
bash run_eval.sh Test
