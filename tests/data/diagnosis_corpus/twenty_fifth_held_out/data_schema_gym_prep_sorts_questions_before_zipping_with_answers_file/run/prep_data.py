"""questions.txt + answers.txt (one per line, same order, from the review sheet) -> tasks.jsonl"""
import json

questions = sorted(set(open("questions.txt").read().splitlines()))  # drop duplicated questions
answers = open("answers.txt").read().splitlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": question}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(questions)} questions, {len(answers)} answers -> tasks.jsonl")
