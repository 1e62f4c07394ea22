"""prep.py: the review sheet's export (answers.tsv) -> string_match.jsonl."""
import json

with open("answers.tsv", encoding="utf-8") as f:
    records = [line.rstrip("\n").split("\t") for line in f if line.strip()][1:]
with open("string_match.jsonl", "w") as out:
    for question, answer in records:
        # the old grader choked on non-ASCII bytes: keep labels plain ASCII
        label = answer.encode("ascii", "ignore").decode().strip()
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep: {len(records)} rows written")
