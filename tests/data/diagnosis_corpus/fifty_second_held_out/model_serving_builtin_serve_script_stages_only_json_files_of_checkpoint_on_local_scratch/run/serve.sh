#!/bin/bash
# serve.sh: the team's model server for the weekly eval
# stage the checkpoint's small files on local scratch (the shared file system is slow to open many small files);
# from the serving wiki: "config and tokenizer files are *.json; the weights stay on the shared file system"
STAGE=/tmp/ho-model_serving_builti-gj3rmyhc/scratch/$(basename /tmp/ho-model_serving_builti-gj3rmyhc/checkpoints/step_0200)
mkdir -p $STAGE
cp /tmp/ho-model_serving_builti-gj3rmyhc/checkpoints/step_0200/*.json $STAGE/
echo "staged $(ls $STAGE | wc -l) file(s) in $STAGE"
exec /work/wt-h52/.venv/bin/gym-pipeline serve-policy --port 54483 --checkpoint $STAGE --latency-ms 30
