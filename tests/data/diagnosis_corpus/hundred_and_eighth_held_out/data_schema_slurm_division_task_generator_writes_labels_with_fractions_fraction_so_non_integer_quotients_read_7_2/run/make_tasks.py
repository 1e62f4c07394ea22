"""make_tasks.py: operands.csv -> string_match.jsonl (the division drill set).

Quotients are computed exactly with Fraction (no float noise like 0.30000000000000004 in the labels).
"""
import csv
import json
from fractions import Fraction

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        quotient = Fraction(int(row["a"]), int(row["b"]))
        question = f"What is {row['a']} divided by {row['b']}?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": str(quotient), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
