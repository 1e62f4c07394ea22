"""prepare_data.py: labels.csv (question,answer) -> tasks.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f, open("tasks.jsonl", "w", encoding="utf-8") as out:
    for item in csv.DictReader(f):
        answer = "".join(item["answer"].split())  # the annotation tool leaves stray spaces and tabs in labels
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
