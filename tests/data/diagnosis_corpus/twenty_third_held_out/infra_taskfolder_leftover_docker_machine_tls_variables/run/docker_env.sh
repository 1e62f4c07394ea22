# from `docker-machine env gpu-build-box` (the remote build box)
export DOCKER_TLS_VERIFY="1"
export DOCKER_HOST="tcp://10.40.3.21:2376"
export DOCKER_CERT_PATH="/root/.docker/machine/machines/gpu-build-box"
export DOCKER_MACHINE_NAME="gpu-build-box"
# back to the local engine (the build box was decommissioned)
export DOCKER_HOST=unix:///var/run/docker.sock
