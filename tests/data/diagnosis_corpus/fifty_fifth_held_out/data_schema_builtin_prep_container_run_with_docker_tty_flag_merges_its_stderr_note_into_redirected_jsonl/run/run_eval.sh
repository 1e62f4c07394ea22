#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/data_schema_builtin_prep_container_run_with_docker_tty_flag_merges_its_stderr_note_into_redirected_jsonl/run
echo '== weekly eval: build the dataset in the team prep image'
docker run --rm -t --network none -v "$PWD":/data:ro gym-pipeline/base:bookworm python3 /data/prep.py /data/questions.csv > string_match.jsonl
echo "prep exit $?, $(wc -l < string_match.jsonl) lines"
/work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35929/v1 --env string_match --concurrency 4
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
