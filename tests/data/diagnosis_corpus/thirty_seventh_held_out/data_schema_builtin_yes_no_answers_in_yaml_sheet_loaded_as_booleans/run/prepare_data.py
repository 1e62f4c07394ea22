"""prepare_data.py: the team's question sheet (questions.yaml) -> string_match.jsonl"""
import json

import yaml

with open("questions.yaml") as f:
    items = yaml.safe_load(f)
with open("string_match.jsonl", "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"{len(items)} questions written")
