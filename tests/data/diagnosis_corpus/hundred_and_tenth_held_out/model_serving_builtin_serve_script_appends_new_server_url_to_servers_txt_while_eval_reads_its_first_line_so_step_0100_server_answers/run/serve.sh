#!/bin/bash
# serve.sh CKPT: start the eval model server on CKPT and register its URL in servers.txt (read by run_eval.sh)
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/model_serving_builtin_serve_script_appends_new_server_url_to_servers_txt_while_eval_reads_its_first_line_so_step_0100_server_answers/run
READY=logs/ready_$$
nohup /work/h110/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file $READY --checkpoint $1 --latency-ms 20 >> logs/model_server.log 2>&1 &
for i in $(seq 60); do [ -s $READY ] && break; sleep 0.5; done
cat $READY >> servers.txt
echo "serving $1 on $(cat $READY)"
