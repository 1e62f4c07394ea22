"""prep.py: raw_tasks.jsonl (the quiz export) -> string_match.jsonl, with the reviewers' label fixes applied."""
import json

from label_fixes import FIXES

fixed = 0
with open("raw_tasks.jsonl") as f, open("string_match.jsonl", "w") as out:
    for line in f:
        row = json.loads(line)
        if row["question_id"] in FIXES:
            row["task"]["expected_answer"] = FIXES[row["question_id"]]
            fixed += 1
        out.write(json.dumps(row["task"]) + "\n")
print(f"wrote string_match.jsonl ({fixed} labels fixed)")
