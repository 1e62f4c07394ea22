# node settings of the eval nodes: the shared eval tools first on PATH (installed by the admins)
export PATH=/tmp/ho-infra_builtin_node_p-sf7_8ov1/sw/eval-tools/bin:$PATH
export OMP_NUM_THREADS=4
