#!/bin/bash
# submit.sh CHECKPOINT: serve the checkpoint (once: the server stays up and its URL is cached for the next
# runs), then submit the eval job and wait for it
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/cache_resume_slurm_submit_reuses_cached_model_server_url_while_last_weeks_server_is_alive_so_new_checkpoint_never_served/run
CKPT=$1
CACHE=$HOME/.cache/weekly_eval/model_url
mkdir -p $(dirname $CACHE)
if [ -s $CACHE ] && curl -sf $(cat $CACHE)/models > /dev/null; then
  echo "reusing the model server at $(cat $CACHE)"
else
  rm -f server_url.txt
  nohup /work/wt-h82/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/cache_resume_slurm_submit_reuses_cached_model_server_url_while_last_weeks_server_is_alive_so_new_checkpoint_never_served/run/server_url.txt --checkpoint $CKPT --latency-ms 20 \
    >> logs/model_server.log 2>&1 &
  for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 0.5; done
  cat server_url.txt > $CACHE
  echo "started a model server for $CKPT at $(cat $CACHE)"
fi
export MODEL_URL=$(cat $CACHE)
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
