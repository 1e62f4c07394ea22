# node settings of the eval nodes (kept from the old small-memory cluster): strip docstrings and asserts
export PYTHONOPTIMIZE=2
export OMP_NUM_THREADS=4
