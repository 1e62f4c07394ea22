"""prepare_data.py: the annotation export (export.jsonl) -> string_match.jsonl"""
import json

from label_utils import clean_label

with open("export.jsonl") as f, open("string_match.jsonl", "w") as out:
    count = 0
    for line in f:
        item = json.loads(line)
        text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": clean_label(item["answer"]), "extraction_mode": "final_answer",
               "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
        count += 1
print(f"wrote {count} tasks")
