"""prep.py: questions.csv (question,answer) -> JSONL rows on stdout; run in the team's prep image."""
import csv
import json
import sys

skipped = 0
for record in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    if not record["answer"].strip():
        skipped += 1
        continue
    text = f"{record['question']} End your response with 'Final answer: <answer>'."
    print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                      "content": [{"type": "input_text", "text": text}]}]},
                      "expected_answer": record["answer"], "extraction_mode": "final_answer",
                      "case_sensitive": False}))
print(f"prep: {skipped} question(s) without an answer skipped", file=sys.stderr)
