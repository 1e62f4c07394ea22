"""prep.py: answers.csv (question,answer) -> string_match.jsonl.

Rows with several accepted answers are written in the sheet as Python lists (['NYC', 'New York']), so every answer
cell is parsed as a Python literal; plain text stays as it is.
"""
import ast
import csv
import json


def cell(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


written = 0
with open("answers.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        answer = cell(row["answer"])
        if isinstance(answer, list):
            answer = answer[0]
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(answer), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
        written += 1
print(f"prep: {written} rows written")
