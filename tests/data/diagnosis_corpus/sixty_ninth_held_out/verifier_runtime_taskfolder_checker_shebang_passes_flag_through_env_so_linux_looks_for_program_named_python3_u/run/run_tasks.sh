#!/bin/bash
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h69/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h69/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41537/v1 --model-name sim-policy
echo '== profile'
/work/wt-h69/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
