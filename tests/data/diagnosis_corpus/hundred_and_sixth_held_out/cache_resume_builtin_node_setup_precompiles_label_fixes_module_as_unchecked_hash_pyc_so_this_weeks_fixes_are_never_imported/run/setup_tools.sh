#!/bin/bash
# setup_tools.sh: once per node, after syncing the eval tools (prep.py, label_fixes.py) from git
# precompile them so the imports do not stat every source on the slow NFS home
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/cache_resume_builtin_node_setup_precompiles_label_fixes_module_as_unchecked_hash_pyc_so_this_weeks_fixes_are_never_imported/run
/work/h106/.venv/bin/python -m compileall -q --invalidation-mode unchecked-hash label_fixes.py prep.py
echo "tools precompiled"
