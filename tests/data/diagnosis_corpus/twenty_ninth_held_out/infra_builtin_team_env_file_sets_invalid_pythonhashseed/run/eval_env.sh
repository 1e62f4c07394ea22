# the team's shell settings for evals (from the wiki page 'reproducible runs'); source it before a run
export EVAL_SEED=1234
export PYTHONHASHSEED=reproducible
export OMP_NUM_THREADS=1
