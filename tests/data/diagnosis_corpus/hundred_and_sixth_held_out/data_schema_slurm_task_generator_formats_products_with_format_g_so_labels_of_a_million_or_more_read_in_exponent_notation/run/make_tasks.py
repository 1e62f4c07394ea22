"""make_tasks.py: operands.csv -> string_match.jsonl (the multiplication drill set).

Operands may be decimals (3.5), so they are read as floats; the label is formatted with :g so that 14.0 reads 14.
"""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        a, b = float(row["a"]), float(row["b"])
        question = f"What is {row['a']} times {row['b']}?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": f"{a * b:g}", "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
