"""prep.py: the quiz sheet (quiz.tsv) -> tasks.jsonl for Gym (Responses API rows)."""
import json

with open("quiz.tsv") as sheet, open("tasks.jsonl", "w") as out:
    next(sheet)
    for line in sheet:
        question, answer = line.rstrip("\n").split("\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        # the question goes into the request's instructions (as in the playground's system prompt box),
        # the user turn only asks for the answer
        turn = {"role": "user", "type": "message",
                "content": [{"type": "input_text", "text": "Please answer the question above."}]}
        out.write(json.dumps({"responses_create_params": {"instructions": text, "input": [turn]},
                              "expected_answer": answer, "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\n")
print("prep: tasks.jsonl written")
