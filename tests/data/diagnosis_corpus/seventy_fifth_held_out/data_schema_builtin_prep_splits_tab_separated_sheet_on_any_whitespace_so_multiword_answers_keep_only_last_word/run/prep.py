"""prep.py: questions.tsv (question<TAB>answer, the labelling tool's export) -> string_match.jsonl."""
import json

written = 0
with open("questions.tsv", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    next(sheet)  # header
    for line in sheet:
        if not line.strip():
            continue
        question, answer = line.rsplit(maxsplit=1)   # the answer is the last column
        text = f"{question.strip()} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
        written += 1
print(f"prep: {written} rows written")
