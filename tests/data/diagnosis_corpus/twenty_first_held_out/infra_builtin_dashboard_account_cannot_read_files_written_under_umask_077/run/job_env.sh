# sourced by every job script
# security baseline (cluster admins, November)
umask 077
export OMP_NUM_THREADS=1
