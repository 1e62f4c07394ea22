#!/bin/bash
# refresh the sample log of count-error-lines with today's (dated, like the log archive names it)
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name/run/tasks/count-error-lines/environment
cat > server-2026-12-01.log <<'EOF'
INFO start
ERROR disk full
INFO retry
ERROR disk full
WARN slow
ERROR timeout
INFO done
EOF
rm -v server.log
ls -l
