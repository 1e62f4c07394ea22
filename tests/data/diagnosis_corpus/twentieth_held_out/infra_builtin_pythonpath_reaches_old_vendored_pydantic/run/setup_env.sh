# sourced by every job script
# our own tools (pip install --target)
export PYTHONPATH=/tmp/ho-infra_builtin_python-ze_14fec/home/lib/python:$PYTHONPATH
export OMP_NUM_THREADS=1
