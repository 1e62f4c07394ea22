"""prep.py: answer_sheet.csv -> string_match.jsonl.

Reviewers sometimes add a note after the answer ("42 (checked AK)"): keep the answer's first token only.
"""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_sheet.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        answer = row["answer"].split()[0]
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=row["question"])}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
