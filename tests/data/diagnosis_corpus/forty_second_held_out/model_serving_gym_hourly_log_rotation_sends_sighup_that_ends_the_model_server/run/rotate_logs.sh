#!/bin/bash
# rotate_logs.sh: hourly (cron): rotate the service logs of this node and tell each service to reopen its log
# (postrotate block copied from the nginx logrotate config)
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/model_serving_gym_hourly_log_rotation_sends_sighup_that_ends_the_model_server/run
for name in model_server; do
  if [ -s logs/$name.log ]; then
    mv logs/$name.log logs/$name.log.1
    kill -HUP $(cat $name.pid) && echo "rotated logs/$name.log, sent HUP to $(cat $name.pid)"
  fi
done
