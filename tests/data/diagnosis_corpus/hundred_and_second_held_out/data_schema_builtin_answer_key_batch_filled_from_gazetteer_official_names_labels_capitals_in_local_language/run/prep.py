"""prep.py: the answer key answer_key.json (a JSON array) -> string_match.jsonl."""
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_key.json", encoding="utf-8") as f, open("string_match.jsonl", "w") as out:
    for item in json.load(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=item["question"])}]}]},
            "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
