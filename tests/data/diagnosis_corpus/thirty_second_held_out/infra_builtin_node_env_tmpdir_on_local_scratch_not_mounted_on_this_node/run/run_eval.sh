#!/bin/bash
# weekly eval; the inputs are staged in a temporary folder on the node's fast local disk
set -e
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/infra_builtin_node_env_tmpdir_on_local_scratch_not_mounted_on_this_node/run
source ./node_env.sh
STAGE=$(mktemp -d)
echo "== weekly eval, staging in $STAGE"
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output $STAGE/inputs.jsonl
cp $STAGE/inputs.jsonl rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33823/v1 \
  --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
rm -rf $STAGE
