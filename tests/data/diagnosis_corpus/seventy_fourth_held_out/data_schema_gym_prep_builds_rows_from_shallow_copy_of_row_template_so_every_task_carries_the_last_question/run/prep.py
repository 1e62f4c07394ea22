"""prep.py: qa.csv (question,answer) -> tasks.jsonl, every row built from our row template."""
import csv
import json

TEMPLATE = {
    "responses_create_params": {"input": [{"role": "user", "type": "message",
                                           "content": [{"type": "input_text", "text": ""}]}]},
    "expected_answer": "", "extraction_mode": "final_answer", "case_sensitive": False,
}

rows = []
with open("qa.csv", newline="", encoding="utf-8") as sheet:
    for item in csv.DictReader(sheet):
        row = TEMPLATE.copy()
        row["responses_create_params"]["input"][0]["content"][0]["text"] = (
            f"{item['question']} End your response with 'Final answer: <answer>'.")
        row["expected_answer"] = item["answer"]
        rows.append(row)

with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} tasks written to tasks.jsonl")
