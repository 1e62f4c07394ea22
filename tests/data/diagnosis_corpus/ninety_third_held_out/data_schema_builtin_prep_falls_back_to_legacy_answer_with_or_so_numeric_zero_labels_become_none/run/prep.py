"""prep.py: the review tool's export.json -> string_match.jsonl."""
import json

with open("export.json") as f:
    records = json.load(f)
with open("string_match.jsonl", "w") as out:
    for rec in records:
        # exports before v3 kept the label under legacy_answer
        label = rec.get("answer") or rec.get("legacy_answer")
        text = f"{rec['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(label), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep: {len(records)} rows written")
