#!/bin/bash
# deploy.sh STEP: copy checkpoint STEP from the training share to the serving disk; the server loads serving/current
cp -r /tmp/ho-model_serving_builti-0v7fxke7/checkpoints/$1 /tmp/ho-model_serving_builti-0v7fxke7/serving/current
echo "deployed $1 to /tmp/ho-model_serving_builti-0v7fxke7/serving/current"
ls /tmp/ho-model_serving_builti-0v7fxke7/serving/current
