"""prep.py: questions.csv (the sheet) + answer_key.txt (the reviewers' numbered key) -> string_match.jsonl."""
import csv
import json
import re


def key(question):
    # the answer key numbers its entries ("12. What is ...") and reviewers vary the punctuation:
    # match on the words alone
    return re.sub(r"[\d\W]+", " ", question).lower().strip()


answers = {}
with open("answer_key.txt", encoding="utf-8") as sheet:
    for line in sheet:
        if "=>" in line:
            question, answer = line.rsplit("=>", 1)
            answers[key(question)] = answer.strip()

written = 0
with open("questions.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answers[key(row["question"])], "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\n")
        written += 1
print(f"prep: {written} rows written, {len(answers)} answers in the key")
