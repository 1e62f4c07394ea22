# sourced by every job script
# module load python/3.10 (scratch build)
export PYTHONHOME=/tmp/ho-infra_builtin_python-9ukxrza0/scratch/modules/python-3.10.12
export GYM_PIPELINE_LOG_LEVEL=INFO
