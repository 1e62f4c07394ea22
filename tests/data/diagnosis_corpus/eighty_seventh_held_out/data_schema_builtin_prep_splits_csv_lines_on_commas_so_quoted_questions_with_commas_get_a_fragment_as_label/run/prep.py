"""prep.py: labels.csv (question,answer) -> string_match.jsonl (quick version, no csv module needed)."""
import json

rows = []
with open("labels.csv") as f:
    next(f)  # header
    for line in f:
        parts = line.rstrip("\n").split(",")
        question, answer = parts[0], parts[1]
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer.strip().strip('"'), "extraction_mode": "final_answer",
                     "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(rows)} rows written")
