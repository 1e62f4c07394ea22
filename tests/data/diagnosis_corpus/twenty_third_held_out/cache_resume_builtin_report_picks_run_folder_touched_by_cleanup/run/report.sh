#!/bin/bash
# weekly report: profile the newest run under runs/ into report/
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_report_picks_run_folder_touched_by_cleanup/run
LATEST=$(ls -td runs/*/ | head -1)
echo "report of $LATEST"
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs ${LATEST}rollouts_materialized_inputs.jsonl --rollouts ${LATEST}rollouts.jsonl --output-dir report
