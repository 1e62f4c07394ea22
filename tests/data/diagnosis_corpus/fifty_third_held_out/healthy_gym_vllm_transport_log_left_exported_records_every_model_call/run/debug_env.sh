# debug_env.sh: sourced before `gym env start` while chasing last week's 'inner server 500' (OBS-311)
# records every exact vLLM request and response of the model proxy
export NEMO_GYM_VLLM_TRANSPORT_LOG=/work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/healthy_gym_vllm_transport_log_left_exported_records_every_model_call/run/logs/vllm_transport.jsonl
