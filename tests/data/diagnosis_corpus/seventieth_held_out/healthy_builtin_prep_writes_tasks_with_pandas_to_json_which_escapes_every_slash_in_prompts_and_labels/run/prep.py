"""prep.py: the units-and-fractions quiz (questions.csv) as string_match tasks, written with pandas."""
import pandas as pd

df = pd.read_csv("questions.csv", dtype=str, keep_default_na=False)
suffix = " End your response with 'Final answer: <answer>'."
tasks = pd.DataFrame({
    "responses_create_params": [{"input": [{"role": "user", "type": "message",
                                            "content": [{"type": "input_text", "text": q + suffix}]}]}
                                for q in df["question"]],
    "expected_answer": df["answer"],
    "extraction_mode": "final_answer",
    "case_sensitive": False,
})
tasks.to_json("tasks.jsonl", orient="records", lines=True)
print(f"wrote {len(tasks)} tasks to tasks.jsonl")
