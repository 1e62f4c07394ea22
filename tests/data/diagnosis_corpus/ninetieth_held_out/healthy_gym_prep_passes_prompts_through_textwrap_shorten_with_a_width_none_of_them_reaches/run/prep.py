"""prep.py: the review export labels.csv -> tasks.jsonl; prompts kept short for the token budget."""
import csv
import json
import textwrap

WIDTH = 400  # characters per prompt (the hosted model's prompt budget, in ci/eval.yaml)
rows, cut = [], 0
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        full = f"{row['question']} End your response with 'Final answer: <answer>'."
        text = textwrap.shorten(full, width=WIDTH, placeholder=" [...]")
        cut += text != full
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(rows)} rows written, {cut} prompts shortened to {WIDTH} characters")
