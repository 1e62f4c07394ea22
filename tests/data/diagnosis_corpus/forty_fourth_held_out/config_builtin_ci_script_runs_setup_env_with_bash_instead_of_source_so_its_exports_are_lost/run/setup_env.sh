# setup_env.sh: where this week's eval finds its model server (source it before run_eval.sh)
export MODEL_URL=http://127.0.0.1:42467/v1
export EVAL_REPEATS=3
echo "model server: $MODEL_URL"
