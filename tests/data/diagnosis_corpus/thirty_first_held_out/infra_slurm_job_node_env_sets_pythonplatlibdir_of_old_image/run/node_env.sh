# node settings of the eval nodes (kept from the old RHEL image, whose Python keeps its modules in lib64)
export PYTHONPLATLIBDIR=lib64
export OMP_NUM_THREADS=4
