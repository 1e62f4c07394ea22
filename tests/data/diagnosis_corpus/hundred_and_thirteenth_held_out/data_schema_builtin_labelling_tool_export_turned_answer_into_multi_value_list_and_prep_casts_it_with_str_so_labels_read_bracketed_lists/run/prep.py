"""prep.py: labelling tool export (labels_export.json) -> string_match.jsonl."""
import json

items = json.load(open("labels_export.json"))["items"]
rows = []
for item in items:
    text = f"{item['question']} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": str(item["answer"]),  # the verifier wants text
                 "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
