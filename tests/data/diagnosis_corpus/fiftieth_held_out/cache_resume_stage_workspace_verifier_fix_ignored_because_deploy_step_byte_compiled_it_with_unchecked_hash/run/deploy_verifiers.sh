#!/bin/bash
# deploy_verifiers.sh: byte-compile the verifiers once, reproducibly (hash-based pycs, as the image build does)
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash/run
/work/wt-h50/.venv/bin/python -m compileall -q --invalidation-mode unchecked-hash verifiers/
ls verifiers/__pycache__
