"""prep_watch.py: keeps string_match.jsonl in step with the labelling sheet (started once, left running).

questions.csv (one question a line) + answer_key.csv (question,answer) -> string_match.jsonl, rewritten whenever
questions.csv changes.
"""
import csv
import json
import os
import time

with open("answer_key.csv", newline="", encoding="utf-8") as sheet:   # loaded once, at start
    KEY = {row["question"]: row["answer"] for row in csv.DictReader(sheet)}
print(f"prep_watch: {len(KEY)} answers loaded", flush=True)

seen = None
while True:
    stamp = os.stat("questions.csv").st_mtime_ns
    if stamp != seen:
        seen = stamp
        questions = [q.strip() for q in open("questions.csv", encoding="utf-8") if q.strip()]
        with open("string_match.jsonl.tmp", "w") as out:
            for question in questions:
                text = f"{question} End your response with 'Final answer: <answer>'."
                out.write(json.dumps({
                    "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                           "content": [{"type": "input_text", "text": text}]}]},
                    "expected_answer": KEY.get(question, ""), "extraction_mode": "final_answer",
                    "case_sensitive": False}) + "\n")
        os.replace("string_match.jsonl.tmp", "string_match.jsonl")
        print(f"prep_watch: string_match.jsonl rewritten ({len(questions)} rows)", flush=True)
    time.sleep(0.5)
