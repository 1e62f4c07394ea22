# eval_settings.sh: everything the weekly eval job needs
export PATH=/work/wt-h76/.venv/bin:/usr/local/bin:/usr/bin:/bin
export MODEL_URL=http://127.0.0.1:36767/v1
REPEATS=3
CONCURRENCY=4
