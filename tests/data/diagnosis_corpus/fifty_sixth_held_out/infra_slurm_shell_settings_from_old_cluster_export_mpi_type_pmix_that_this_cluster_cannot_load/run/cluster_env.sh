# cluster_env.sh: my shell settings, sourced by every script (brought over from the old cluster)
export PATH=$HOME/bin:$PATH
export SQUEUE_FORMAT="%.10i %.20j %.8T %.10M %R"
# multi-node jobs there needed PMIx
export SLURM_MPI_TYPE=pmix
