#!/bin/bash
# weekly eval
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/infra_builtin_image_build_sed_for_hostname_line_also_rewrites_localhost_to_127_0_1_1_so_model_url_misses_server/run
echo '== weekly eval'
getent hosts localhost
curl -sS http://127.0.0.1:34997/v1/models | head -c 200; echo
/work/wt-h47/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h47/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://localhost:34997/v1 --env string_match --concurrency 4
/work/wt-h47/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
