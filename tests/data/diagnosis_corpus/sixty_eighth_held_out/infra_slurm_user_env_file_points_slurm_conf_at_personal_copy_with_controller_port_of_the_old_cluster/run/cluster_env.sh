# cluster_env.sh: my shell settings for the cluster (sourced by my scripts)
export SLURM_CONF=/work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/infra_slurm_user_env_file_points_slurm_conf_at_personal_copy_with_controller_port_of_the_old_cluster/run/.slurm/slurm.conf
export EVAL_PARTITION=debug
