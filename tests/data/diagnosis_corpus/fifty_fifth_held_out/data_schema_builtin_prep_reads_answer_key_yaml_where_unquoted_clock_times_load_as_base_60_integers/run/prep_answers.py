"""prep_answers.py: questions.txt (one a line) + answers.yaml (q1: ..., q2: ...) -> string_match.jsonl"""
import json
import sys

import yaml

questions = [line.strip() for line in open(sys.argv[1]) if line.strip()]
answers = yaml.safe_load(open(sys.argv[2]))
with open(sys.argv[3], "w") as out:
    for number, question in enumerate(questions, start=1):
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              # numbers in the key (42, 19) load as int: the verifier wants text
                              "expected_answer": str(answers[f"q{number}"]), "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\n")
print(f"prep: {len(questions)} questions, {len(answers)} answers")
