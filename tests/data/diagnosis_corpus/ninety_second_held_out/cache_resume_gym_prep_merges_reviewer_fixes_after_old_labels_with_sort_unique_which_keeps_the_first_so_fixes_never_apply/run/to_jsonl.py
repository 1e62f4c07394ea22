"""to_jsonl.py CSV JSONL: question,answer rows (no header) -> string_match tasks."""
import csv
import json
import sys

rows = []
with open(sys.argv[1], newline="") as f:
    for question, answer in csv.reader(f):
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open(sys.argv[2], "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"to_jsonl: {len(rows)} tasks written")
