# the remote build engine (docker-machine env remote-builder)
export DOCKER_TLS_VERIFY=1
export DOCKER_CERT_PATH=/tmp/ho-infra_taskfolder_doc-oqmp7iwn/home/.docker/remote-builder
