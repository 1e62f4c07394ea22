#!/bin/bash
# nightly: re-score last night's run with the current verifier (CI step budget: 45 s)
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/throughput_stage_nightly_rescore_keeps_reverify_repeat_of_fifty_from_flakiness_hunt_so_it_overruns_ci_budget/run
timeout 45 /work/wt-h73/.venv/bin/gym-pipeline reverify --env exact_answer --home /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/throughput_stage_nightly_rescore_keeps_reverify_repeat_of_fifty_from_flakiness_hunt_so_it_overruns_ci_budget/run --repeat 50 /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/throughput_stage_nightly_rescore_keeps_reverify_repeat_of_fifty_from_flakiness_hunt_so_it_overruns_ci_budget/run   # --repeat: flakiness hunt
echo "reverify exit: $?"
