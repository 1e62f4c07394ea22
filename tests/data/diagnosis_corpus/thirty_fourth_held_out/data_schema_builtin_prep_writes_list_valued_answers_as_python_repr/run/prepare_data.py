"""prepare_data.py: the review tool's export (review_export.json) -> string_match.jsonl"""
import json

items = json.load(open("review_export.json"))
with open("string_match.jsonl", "w") as out:
    for item in items:
        # older exports had "answer", the new one has "answers": take whichever is there
        label = str(item.get("answers") or item.get("answer"))
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(items)} tasks")
