#!/bin/bash
# merge.sh: every shard's rollouts into one file, and the weekly number
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/cache_resume_slurm_merge_globs_shard_folders_so_last_weeks_fifth_shard_of_dropped_tasks_is_merged_in/run
cat shard_*/rollouts.jsonl > merged_rollouts.jsonl
for d in shard_*/; do echo "$d $(wc -l < $d/rollouts.jsonl) rollouts"; done
/work/wt-h68/.venv/bin/python - <<'EOF'
import json
rows = [json.loads(line) for line in open("merged_rollouts.jsonl")]
print(f"merged {len(rows)} rollouts, mean reward {sum(r['reward'] for r in rows) / len(rows):.3f}")
EOF
