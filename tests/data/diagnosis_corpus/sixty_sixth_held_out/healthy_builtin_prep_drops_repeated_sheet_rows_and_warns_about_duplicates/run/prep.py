"""prep.py: the labelling sheet (questions.csv) -> tasks.jsonl, one task per distinct (question, answer)."""
import csv
import json

with open("questions.csv", newline="") as handle:
    rows = list(csv.DictReader(handle))
seen, kept = set(), []
for row in rows:
    key = (row["question"].strip(), row["answer"].strip())
    if key in seen:
        continue
    seen.add(key)
    kept.append(row)
if len(kept) < len(rows):
    print(f"WARNING: dropped {len(rows) - len(kept)} duplicate rows (same question and answer) from questions.csv")
with open("tasks.jsonl", "w") as out:
    for row in kept:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: wrote {len(kept)} tasks to tasks.jsonl")
