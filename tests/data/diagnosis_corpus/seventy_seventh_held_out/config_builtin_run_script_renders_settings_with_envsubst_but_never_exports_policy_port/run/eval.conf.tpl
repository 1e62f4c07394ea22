# eval.conf.tpl: rendered with envsubst by run_eval.sh
MODEL_URL=http://127.0.0.1:${POLICY_PORT}/v1
REPEATS=3
CONCURRENCY=4
