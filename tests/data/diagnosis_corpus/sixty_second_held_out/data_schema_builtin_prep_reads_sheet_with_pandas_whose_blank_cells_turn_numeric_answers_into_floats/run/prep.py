"""prep.py: the labelling sheet (answers.csv: question, answer_text, answer_number) as string_match rows."""
import json

import pandas as pd

sheet = pd.read_csv("answers.csv")
with open("tasks.jsonl", "w") as out:
    for row in sheet.itertuples():
        # numeric questions are labelled in answer_number, the others in answer_text
        answer = row.answer_text if isinstance(row.answer_text, str) else str(row.answer_number)
        text = f"{row.question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"wrote {len(sheet)} tasks to tasks.jsonl")
