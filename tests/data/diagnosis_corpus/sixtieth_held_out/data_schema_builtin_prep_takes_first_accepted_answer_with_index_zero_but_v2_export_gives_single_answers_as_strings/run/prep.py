"""prep.py: the labelling team's export (labels_v2.jsonl: id, question, answers) as string_match rows."""
import json

with open("labels_v2.jsonl") as export, open("tasks.jsonl", "w") as out:
    for line in export:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": item["answers"][0],  # the first accepted answer is the reference
            "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote tasks.jsonl")
