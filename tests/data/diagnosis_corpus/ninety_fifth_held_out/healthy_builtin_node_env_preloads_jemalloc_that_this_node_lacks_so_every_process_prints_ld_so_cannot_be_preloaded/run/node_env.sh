# node_env.sh: the eval nodes' environment, copied from the GPU training nodes' profile
export LD_PRELOAD=libjemalloc.so.2
export MALLOC_CONF=background_thread:true,dirty_decay_ms:10000
export OMP_NUM_THREADS=1
