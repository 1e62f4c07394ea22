# sourced by every job (node-local scratch)
export TMPDIR=/tmp/ho-infra_builtin_prepar-ge108kgt/local_tmp
export OMP_NUM_THREADS=1
