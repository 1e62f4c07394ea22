#!/bin/bash
# weekly eval: refresh data/ from this week's export, materialize, collect, profile
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/cache_resume_builtin_run_script_refreshes_data_with_cp_update_which_skips_corrected_export_older_than_the_working_copy/run
# -u: only copy what changed (the full exports are 2 GB)
cp -uv exports/2026-W49/string_match.jsonl data/
ls -l --time-style=long-iso data exports/2026-W49
/work/h98/.venv/bin/gym-pipeline materialize --input data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h98/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37627/v1 --env string_match --concurrency 4
/work/h98/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
