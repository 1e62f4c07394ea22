#!/bin/bash
# refresh count-error-lines with this week's sample log (one more ERROR line) and its expected count
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run/tasks/count-error-lines
cat > environment/server.log <<'EOF'
INFO start
ERROR disk full
INFO retry
ERROR disk full
WARN slow
ERROR timeout
ERROR connection reset
INFO done
EOF
sed -i 's/= "3"/= "4"/' tests/test.sh
grep -c ERROR environment/server.log
grep -n '"4"' tests/test.sh
