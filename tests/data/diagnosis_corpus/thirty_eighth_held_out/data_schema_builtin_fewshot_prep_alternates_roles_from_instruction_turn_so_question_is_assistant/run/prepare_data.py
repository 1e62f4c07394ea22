"""prepare_data.py: questions.csv -> string_match.jsonl, with two worked examples before each question"""
import csv
import json

INSTRUCTIONS = "Solve each problem. End your response with 'Final answer: <answer>'."
SHOTS = [("What is 2 plus 2?", "Final answer: 4"), ("What is 10 minus 3?", "Final answer: 7")]


def message(index, text):
    role = "user" if index % 2 == 0 else "assistant"  # turns alternate: user, assistant, user, ...
    kind = "input_text" if role == "user" else "output_text"
    return {"role": role, "type": "message", "content": [{"type": kind, "text": text}]}


with open("questions.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        turns = [INSTRUCTIONS]
        for question, answer in SHOTS:
            turns += [question, answer]
        turns.append(item["question"] + " End your response with 'Final answer: <answer>'.")
        row = {"responses_create_params": {"input": [message(i, t) for i, t in enumerate(turns)]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
