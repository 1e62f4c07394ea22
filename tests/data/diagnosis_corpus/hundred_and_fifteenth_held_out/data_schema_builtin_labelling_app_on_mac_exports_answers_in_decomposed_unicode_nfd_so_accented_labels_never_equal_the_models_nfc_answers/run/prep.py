"""prep.py: answer_key.json (exported by the labelling app on the reviewer's Mac) -> string_match.jsonl."""
import json

rows = []
for item in json.load(open("answer_key.json")):
    text = f"{item['question']} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
