#!/bin/bash
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it/run
echo '== weekly taskset run'
echo '== materialize'
/work/h93/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h93/.venv/bin/gym-pipeline stage collect --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33163/v1 --model-name sim-policy
echo '== profile'
/work/h93/.venv/bin/gym-pipeline stage profile --sweep-config /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
