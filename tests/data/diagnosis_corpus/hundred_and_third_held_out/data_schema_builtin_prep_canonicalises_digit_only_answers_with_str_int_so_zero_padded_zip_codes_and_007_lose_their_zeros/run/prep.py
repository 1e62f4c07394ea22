"""prep.py: the reviewers' sheet (sheet.tsv: question<TAB>answer) -> string_match.jsonl."""
import json


def canonical(answer: str) -> str:
    """one spelling per number: reviewers type 12, 012 or 0012 for the same count"""
    return str(int(answer)) if answer.isdigit() else answer


rows = []
with open("sheet.tsv", encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        question, answer = line.rstrip("\n").split("\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": canonical(answer.strip()), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
