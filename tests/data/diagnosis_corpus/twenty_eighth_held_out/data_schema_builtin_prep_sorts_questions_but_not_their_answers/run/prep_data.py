#!/usr/bin/env python3
"""questions.txt + answers.txt (one per line, same order, from the review tool) -> tasks.jsonl; the questions are
deduplicated and sorted first, so that the eval's task indices stay stable when reviewers reorder them"""
import json
import sys

questions = sorted({line.strip() for line in open(sys.argv[1]) if line.strip()})
answers = [line.strip() for line in open(sys.argv[2]) if line.strip()]
with open(sys.argv[3], "w") as out:
    for question, answer in zip(questions, answers):
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(questions)} questions, {len(answers)} answers -> {sys.argv[3]}")
