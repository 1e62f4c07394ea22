#!/bin/bash
# CI step: weekly eval (materialize, collect within the step budget, profile)
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/throughput_builtin_run_script_collect_concurrency_defaults_from_generic_concurrency_variable_that_ci_runner_exports_as_one_for_docker_builds/run
echo "collect concurrency: ${CONCURRENCY:-4}"
/work/h96/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout 25 /work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36331/v1 --env string_match --concurrency ${CONCURRENCY:-4}
/work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
