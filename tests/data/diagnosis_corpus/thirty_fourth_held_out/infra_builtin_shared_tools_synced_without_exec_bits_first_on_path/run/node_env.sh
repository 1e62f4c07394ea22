# node settings of the eval nodes: the team's tools first on PATH
export PATH=/tmp/ho-infra_builtin_shared-2lvem01x/shared/team-tools/bin:/usr/local/bin:/usr/bin:/bin
export OMP_NUM_THREADS=4
