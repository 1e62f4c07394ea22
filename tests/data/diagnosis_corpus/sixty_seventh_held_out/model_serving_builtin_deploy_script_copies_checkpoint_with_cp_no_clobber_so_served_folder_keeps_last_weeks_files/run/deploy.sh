#!/bin/bash
# deploy.sh STEP: copy checkpoint STEP onto the serving disk, where the model server loads serving/current.
# -n: never overwrite a file in place (a copy that dies half-way must not corrupt the served model)
mkdir -p /tmp/ho-model_serving_builti-gl8dkaf9/serving/current
cp -rn /tmp/ho-model_serving_builti-gl8dkaf9/checkpoints/$1/. /tmp/ho-model_serving_builti-gl8dkaf9/serving/current/
echo "deployed $1 to /tmp/ho-model_serving_builti-gl8dkaf9/serving/current"
ls -l /tmp/ho-model_serving_builti-gl8dkaf9/serving/current
