#!/usr/bin/env python3
"""questions.txt + answers.txt (copied out of the review document, one per line) -> tasks.jsonl"""
import json

questions = open("questions.txt", encoding="utf-8").read().splitlines()
answers = open("answers.txt", encoding="utf-8").read().splitlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(questions)} questions -> tasks.jsonl")
