#!/bin/bash
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing/run
echo '== clean up the team scratch images'
docker image prune -f --filter label=team=h87-eval-scratch
echo '== materialize'
/work/wt-h87/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h87/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37921/v1 --model-name sim-policy
echo '== profile'
/work/wt-h87/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
