#!/bin/bash
# deploy_libs.sh: copy the team's eval libraries into site/ (collect_eval.py runs with PYTHONPATH=site)
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_collector_imports_deployed_copy_in_site_folder_not_the_fixed_package_source/run
mkdir -p site
rm -rf site/mymatch && cp -r mymatch/mymatch site/ && echo "deployed mymatch $(date +%F) to site/"
