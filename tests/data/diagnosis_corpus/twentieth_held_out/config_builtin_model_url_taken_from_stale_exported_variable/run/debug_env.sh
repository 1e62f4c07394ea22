# Monday: debugging the step_0100 server (sourced from ~/.bashrc)
export MODEL_URL=http://127.0.0.1:45403/v1
export GYM_PIPELINE_LOG_LEVEL=INFO
