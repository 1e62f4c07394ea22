# eval runner profile (sourced by every CI step): the team's standing endpoints
export MODEL_URL=http://127.0.0.1:34959/v1
export HF_HOME=/tmp/hf-cache
export PYTHONUNBUFFERED=1
