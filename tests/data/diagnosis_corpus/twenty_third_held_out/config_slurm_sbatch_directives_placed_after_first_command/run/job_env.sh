# sourced by the job scripts
export MODEL_URL=http://127.0.0.1:35607/v1
