"""prep.py: the labelling team's codes.csv (question,answer) as string_match rows."""
import json

import pandas as pd

labels = pd.read_csv("codes.csv")
with open("codes.jsonl", "w") as out:
    for question, answer in zip(labels["question"], labels["answer"]):
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
                {"type": "input_text", "text": f"{question} End your response with 'Final answer: <answer>'."}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"wrote {len(labels)} rows to codes.jsonl")
