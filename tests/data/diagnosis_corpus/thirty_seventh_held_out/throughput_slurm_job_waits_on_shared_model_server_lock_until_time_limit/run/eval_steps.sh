#!/bin/bash
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/throughput_slurm_job_waits_on_shared_model_server_lock_until_time_limit/run
/work/wt-h37/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h37/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35673/v1 --env string_match --concurrency 4
/work/wt-h37/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
