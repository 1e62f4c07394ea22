"""prep.py: the review sheet's export (answers.tsv) -> string_match.jsonl."""
import json


def clean(answer):
    # the sheet exports whole numbers as 8.0 and 24.0: make them plain integers
    try:
        return str(round(float(answer)))
    except ValueError:
        return answer.strip()


with open("answers.tsv", encoding="utf-8") as f:
    records = [line.rstrip("\n").split("\t") for line in f if line.strip()][1:]
with open("string_match.jsonl", "w") as out:
    for question, answer in records:
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": clean(answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep: {len(records)} rows written")
