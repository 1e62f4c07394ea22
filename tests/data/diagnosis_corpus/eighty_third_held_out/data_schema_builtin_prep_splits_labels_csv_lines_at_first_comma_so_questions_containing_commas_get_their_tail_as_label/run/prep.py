"""prep.py: the labelling team's labels.csv (question,answer) -> string_match.jsonl."""
import json

with open("labels.csv") as f:
    lines = f.read().splitlines()[1:]  # skip the header
with open("string_match.jsonl", "w") as out:
    for line in lines:
        question, answer = line.split(",", 1)
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(lines)} rows written")
