#!/bin/bash
# publish.sh (cron, 30 min after weekly-eval.timer): copy the eval's results to the shared results folder
mkdir -p /work/wt-h50/tests/data/diagnosis_corpus/held_out/infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp/run/results
cp -v /var/tmp/capitals-weekly-eval-4eroei/rollouts*.jsonl /work/wt-h50/tests/data/diagnosis_corpus/held_out/infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp/run/results/
echo "published $(wc -l < /work/wt-h50/tests/data/diagnosis_corpus/held_out/infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp/run/results/rollouts.jsonl) rollouts from /var/tmp/capitals-weekly-eval-4eroei ($(date -r /var/tmp/capitals-weekly-eval-4eroei/rollouts.jsonl))"
