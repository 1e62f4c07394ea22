# eval_settings.sh: where the weekly eval finds its model server
MODEL_PORT=60681
MODEL_URL=http://127.0.0.1:$MODEL_PORT/v1
