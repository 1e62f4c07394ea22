#!/bin/bash
# weekly eval, with the reproducibility check the release process asks for
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/healthy_builtin_reproducibility_check_cmp_of_two_seeded_collects_reports_files_differ/run
URL=http://127.0.0.1:41723/v1
/work/wt-h62/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --num-repeats-add-seed --output rollouts_materialized_inputs.jsonl
/work/wt-h62/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo '== reproducibility check: the same seeded inputs collected a second time'
mkdir -p repro
/work/wt-h62/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output repro/rollouts.jsonl --model-url $URL \
  --env string_match --concurrency 4
cmp rollouts.jsonl repro/rollouts.jsonl && echo 'rollouts byte-identical' || echo 'WARNING: rollouts differ from the re-run'
/work/wt-h62/.venv/bin/python - <<'EOF'
import json
def keyed(path):
    rows = [json.loads(line) for line in open(path)]
    return sorted((r["_ng_task_index"], r["_ng_rollout_index"], r["reward"], r.get("extracted_answer")) for r in rows)
first, second = keyed("rollouts.jsonl"), keyed("repro/rollouts.jsonl")
same = sum(a == b for a, b in zip(first, second))
print(f"per-rollout (task, repeat, reward, answer) equal in {same} of {len(first)} rollouts")
EOF
