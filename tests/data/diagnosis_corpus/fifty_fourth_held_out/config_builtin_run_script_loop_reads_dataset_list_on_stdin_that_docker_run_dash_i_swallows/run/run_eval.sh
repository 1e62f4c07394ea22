#!/bin/bash
# weekly eval of every dataset listed in datasets.txt, each into results/<name>/
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/config_builtin_run_script_loop_reads_dataset_list_on_stdin_that_docker_run_dash_i_swallows/run
while read -r ds; do
  name=$(basename "$ds" .jsonl)
  echo "== $name"
  # the release checklist: check the rows with the release image's python, not ours
  docker run -i --rm --network none -v "$PWD":/work:ro gym-pipeline/base:bookworm python3 /work/check_rows.py "/work/$ds" \
    || { echo "$name: schema check failed, skipped"; continue; }
  mkdir -p "results/$name"
  (cd "results/$name" && /work/wt-h54/.venv/bin/gym-pipeline materialize --input "../../$ds" --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl && /work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38411/v1 --env string_match --concurrency 4 && /work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl)
done < datasets.txt
echo "== done: $(ls results | tr '\n' ' ')"
