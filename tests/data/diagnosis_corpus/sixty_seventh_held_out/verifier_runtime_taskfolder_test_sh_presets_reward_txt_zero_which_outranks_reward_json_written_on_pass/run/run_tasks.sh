#!/bin/bash
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h67/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h67/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35857/v1 --model-name sim-policy
echo '== profile'
/work/wt-h67/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
