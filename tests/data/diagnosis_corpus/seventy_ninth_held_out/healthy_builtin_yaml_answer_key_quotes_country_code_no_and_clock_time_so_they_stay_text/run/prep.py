"""prep.py: the answer key (answers.yaml, a list of question/answer entries) -> string_match.jsonl."""
import json

import yaml

with open("answers.yaml", encoding="utf-8") as handle:
    key = yaml.safe_load(handle)
with open("string_match.jsonl", "w") as out:
    for entry in key:
        text = f"{entry['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(entry["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(key)} rows written")
