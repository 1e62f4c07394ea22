#!/bin/bash
# weekly eval; outputs compressed afterwards (disk quota)
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/healthy_builtin_run_script_gzips_rollouts_after_profiling_so_run_folder_keeps_only_compressed_rollouts/run
/work/wt-h78/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h78/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36345/v1 --env string_match --concurrency 4
/work/wt-h78/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
# quota policy of the shared disk: compress large outputs once the run is done
gzip -9 rollouts.jsonl rollouts_materialized_inputs.jsonl
ls -la
