#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:40829/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
