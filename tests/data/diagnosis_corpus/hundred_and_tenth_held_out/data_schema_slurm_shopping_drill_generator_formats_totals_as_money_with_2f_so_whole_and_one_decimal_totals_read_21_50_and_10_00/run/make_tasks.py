"""make_tasks.py: items.csv -> string_match.jsonl (the shopping drill: total cost of two items)."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("items.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        total = float(row["price_a"]) + float(row["price_b"])
        question = f"A {row['a']} costs ${row['price_a']} and a {row['b']} costs ${row['price_b']}. What is the total in dollars?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": f"{total:.2f}", "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote string_match.jsonl")
