# team paths
export DATA_ROOT=/work/wt-h21/tests/data/diagnosis_corpus/held_out/config_stage_sweep_yaml_dataset_path_with_shell_variable/run
export RUNS_ROOT=/tmp/ho-config_stage_sweep_y-hbillnup/runs
