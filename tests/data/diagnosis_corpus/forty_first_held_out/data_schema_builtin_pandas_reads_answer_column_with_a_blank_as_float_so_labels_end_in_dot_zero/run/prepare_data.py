"""prepare_data.py: the labelling sheet (labels.csv) -> string_match.jsonl (run with the project venv)"""
import json

import pandas as pd

sheet = pd.read_csv("labels.csv")
sheet = sheet.dropna(subset=["answer"])  # rows still under review have no answer yet
with open("string_match.jsonl", "w") as out:
    for item in sheet.itertuples():
        text = item.question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item.answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(sheet)} tasks")
