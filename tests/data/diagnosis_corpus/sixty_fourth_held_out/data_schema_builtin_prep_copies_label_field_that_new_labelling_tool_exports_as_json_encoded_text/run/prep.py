"""prep.py: the labelling tool's export (labels_export.jsonl) -> tasks.jsonl."""
import json

with open("labels_export.jsonl") as handle, open("tasks.jsonl", "w") as out:
    count = 0
    for line in handle:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(item["label"]), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
        count += 1
print(f"prep: wrote {count} tasks")
