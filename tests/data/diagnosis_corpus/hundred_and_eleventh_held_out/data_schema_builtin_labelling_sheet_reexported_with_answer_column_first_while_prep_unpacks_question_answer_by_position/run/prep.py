"""prep.py: answer_key.tsv (exported from the labelling sheet) -> string_match.jsonl."""
import json

rows = []
with open("answer_key.tsv", encoding="utf-8") as f:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\n").split("\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer.strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
