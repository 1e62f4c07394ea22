"""prep.py: the quiz DB's fixed-width report (answer_key.txt) -> string_match.jsonl.

columns: id 1-8, answer 9-11, question 13-
"""
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_key.txt") as f, open("string_match.jsonl", "w") as out:
    for line in f:
        if not line.strip() or line.startswith("#"):
            continue
        answer, question = line[8:11].strip(), line[12:].rstrip("\n")
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
