#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/infra_builtin_dev_shm_filled_by_crashed_training_job_breaks_prep_multiprocessing_pool/run
echo "== weekly eval ($(df -h --output=avail . | tail -1) free here)"
python3 prepare_data.py
/work/wt-h40/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h40/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46771/v1 --env string_match --concurrency 4
/work/wt-h40/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
