# node settings of the eval nodes: the team's tools importable from every Python program
export PYTHONPATH=/work/wt-h33/tests/data/diagnosis_corpus/held_out/infra_builtin_node_env_pythonpath_tools_folder_shadows_stdlib_select/run/tools${PYTHONPATH:+:$PYTHONPATH}
export OMP_NUM_THREADS=4
