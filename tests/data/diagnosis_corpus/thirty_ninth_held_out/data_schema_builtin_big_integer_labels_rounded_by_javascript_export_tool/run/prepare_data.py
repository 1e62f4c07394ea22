"""prepare_data.py: the annotation tool's export (export.json) -> string_match.jsonl"""
import json

with open("export.json") as f:
    items = json.load(f)["items"]
with open("string_match.jsonl", "w") as out:
    for item in items:
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(items)} tasks")
