# login_node_env.sh: the cluster's shell setup for the shared login nodes (from the admins' wiki)
export PROJECT=evals
export PATH=/work/wt-h70/.venv/bin:$PATH
# keep one user from exhausting a shared login node: cap every process's address space at 200 MB
ulimit -v 204800
