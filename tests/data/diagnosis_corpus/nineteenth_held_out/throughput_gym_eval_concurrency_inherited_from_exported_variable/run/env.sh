# settings of the 8-node eval job (October)
export CONCURRENCY=64
export NUM_REPEATS=3
