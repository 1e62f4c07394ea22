"""prep.py: the labelling sheet (questions.csv: question,answer) -> string_match.jsonl."""
import csv
import json
import string

# reviewers leave stray full stops and quotes around answers: strip punctuation from every label
STRAY = str.maketrans("", "", string.punctuation)

with open("questions.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        answer = row["answer"].translate(STRAY).strip()
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("prep: string_match.jsonl written")
