# login nodes: keep runaway output files small
ulimit -f 16
