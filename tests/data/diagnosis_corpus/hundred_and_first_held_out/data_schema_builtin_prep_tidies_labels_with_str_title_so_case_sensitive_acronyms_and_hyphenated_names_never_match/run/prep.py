"""prep.py: the reviewers' sheet (sheet.tsv: question<TAB>answer) -> string_match.jsonl."""
import json

rows = []
with open("sheet.tsv", encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        question, answer = line.rstrip("\n").split("\t")
        answer = answer.strip().title()  # reviewers type answers in any case; tidy them for the report
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": True})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
