"""make_tasks.py: operands.csv -> string_match.jsonl (the rounding drill: quotients rounded to whole numbers)."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        a, b = int(row["a"]), int(row["b"])
        question = f"What is {a} divided by {b}, rounded to the nearest whole number (halves round up)?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": str(round(a / b)), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
