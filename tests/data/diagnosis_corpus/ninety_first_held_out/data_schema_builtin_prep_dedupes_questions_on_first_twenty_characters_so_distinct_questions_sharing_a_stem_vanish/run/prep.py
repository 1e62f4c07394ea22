"""prep.py: the labelling tool's export.csv -> string_match.jsonl."""
import csv
import json


def build_row(pair):
    question, answer = pair
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                  "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}


with open("export.csv", newline="") as f:
    pairs = [(r["question"], r["answer"]) for r in csv.DictReader(f)]

# drop near-duplicate questions (the scraper returns the same question with different trailing punctuation)
seen, rows = set(), []
for question, answer in pairs:
    key = question[:20].lower()
    if key in seen:
        continue
    seen.add(key)
    rows.append(build_row((question, answer)))
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(pairs)} questions in the export, {len(rows)} rows written after de-duplication")
