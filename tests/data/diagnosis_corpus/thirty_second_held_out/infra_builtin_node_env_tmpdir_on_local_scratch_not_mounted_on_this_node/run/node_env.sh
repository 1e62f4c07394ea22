# node settings of the eval nodes: temporary files on the node-local NVMe scratch
export TMPDIR=/local_scratch/$USER/tmp
export OMP_NUM_THREADS=4
