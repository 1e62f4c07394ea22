"""codes.csv (the reviewed sheet) -> codes.jsonl, the eval rows"""
import json
import sys

import pandas as pd

frame = pd.read_csv(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for record in frame.itertuples():
        text = f"{record.question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(record.answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(frame)} rows to {sys.argv[2]}")
