# node settings (rootless Docker, one daemon per user)
export DOCKER_HOST=unix:///run/user/1000/docker.sock
export OMP_NUM_THREADS=4
