"""prep.py: the labelling team's labels.csv -> tasks.jsonl. The CSV parse is memoised on disk with joblib
(the full export has 200k rows and takes minutes to parse)."""
import csv
import hashlib
import json

from joblib import Memory

memory = Memory(".prep_cache", verbose=1)


@memory.cache
def load_labels(path, digest):
    with open(path, newline="", encoding="utf-8") as f:
        return [(r["question"], r["answer"]) for r in csv.DictReader(f)]


path = "labels.csv"
pairs = load_labels(path, hashlib.sha256(open(path, "rb").read()).hexdigest())
with open("tasks.jsonl", "w") as out:
    for question, answer in pairs:
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(pairs)} tasks written, labels: {[a for _, a in pairs]}")
