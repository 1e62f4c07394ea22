"""prep.py: the sheet's two exported columns (questions.txt, answers.txt, one per line) -> string_match.jsonl."""
import json

questions = open("questions.txt").read().splitlines()
answers = open("answers.txt").read().split()  # answers are single words
rows = []
for question, answer in zip(questions, answers):
    text = f"{question} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                          "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(rows)} rows written")
