"""prep.py (runs in the prep container): questions.csv + every hard-set shard in /shards -> tasks.jsonl."""
import csv
import glob
import json

def read(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))

base = read("questions.csv")
shards = sorted(glob.glob("/shards/*.csv"))
hard = [row for shard in shards for row in read(shard)]
print(f"prep: {len(base)} base rows, {len(hard)} hard-set rows from {len(shards)} shard files")
with open("tasks.jsonl", "w") as out:
    for row in base + hard:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: wrote {len(base) + len(hard)} tasks to tasks.jsonl")
