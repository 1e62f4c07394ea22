"""prepare_data.py: the labelling team's sheet (labels.csv) -> string_match.jsonl"""
import pandas as pd

sheet = pd.read_csv("labels.csv", dtype=str)
rows = [{"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": q + " End your response with 'Final answer: <answer>'."}]}]},
         "expected_answer": a, "extraction_mode": "final_answer", "case_sensitive": False}
        for q, a in zip(sheet["question"], sheet["answer"])]
pd.DataFrame(rows).to_json("string_match.jsonl", orient="records", lines=True)
print(f"wrote {len(rows)} tasks")
