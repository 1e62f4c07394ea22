# node_env.sh: environment of the eval nodes; source it in job and eval scripts
export OMP_NUM_THREADS=1
export TZ=UTC
# security baseline SB-PY-07: the working directory must not shadow installed modules
export PYTHONSAFEPATH=1
