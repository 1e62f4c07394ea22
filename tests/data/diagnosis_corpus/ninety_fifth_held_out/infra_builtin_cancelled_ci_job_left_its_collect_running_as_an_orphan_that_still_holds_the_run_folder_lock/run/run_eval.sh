#!/bin/bash
# weekly eval
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/infra_builtin_cancelled_ci_job_left_its_collect_running_as_an_orphan_that_still_holds_the_run_folder_lock/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h95/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35939/v1 --env string_match --concurrency 4
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
