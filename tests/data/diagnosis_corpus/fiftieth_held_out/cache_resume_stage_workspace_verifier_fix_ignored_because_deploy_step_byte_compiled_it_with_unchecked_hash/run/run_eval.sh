#!/bin/bash
# weekly eval (verifier: verifiers/my_verifier.py)
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash/run
echo '== weekly eval'
echo '== materialize'
/work/wt-h50/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
echo '== collect'
/work/wt-h50/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14 --model-url http://127.0.0.1:35791/v1 --model-name sim-policy
echo '== profile'
/work/wt-h50/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash/run/sweep.yaml --checkpoint step_0200 --env capitals --code-version v14
