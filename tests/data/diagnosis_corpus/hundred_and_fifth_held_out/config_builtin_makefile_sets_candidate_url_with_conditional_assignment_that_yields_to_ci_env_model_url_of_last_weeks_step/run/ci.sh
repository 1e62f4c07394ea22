#!/bin/bash
# ci.sh: the CI job's entry point
set -a
. ./ci.env
set +a
echo "== step_0200 candidate eval"
make eval
