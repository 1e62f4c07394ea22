"""prepare_data.py: questions.txt + answers.txt (one per line, from the review tool) -> tasks.jsonl"""
import json

questions = open("questions.txt").readlines()
answers = open("answers.txt").readlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        text = question[:-1] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer[:-1],  # drop the newline
               "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {min(len(questions), len(answers))} tasks")
