# node_env.sh: environment of the eval nodes; source it in job and eval scripts
export OMP_NUM_THREADS=1
export TZ=UTC
# the old reporting cron jobs crashed on non-ASCII output in their mails (INC-2291)
export PYTHONIOENCODING=ascii:replace
