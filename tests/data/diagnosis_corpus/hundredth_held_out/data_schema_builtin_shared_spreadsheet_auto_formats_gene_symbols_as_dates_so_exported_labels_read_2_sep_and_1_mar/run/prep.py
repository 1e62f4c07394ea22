"""prep.py: labels.csv (question,answer; exported from the team's shared sheet) -> string_match.jsonl."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=row["question"])}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\n")
