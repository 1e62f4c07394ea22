"""prep.py: the counting quiz from the voice team's answer key (answer_key.jsonl) as string_match tasks."""
import json

with open("answer_key.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{q['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote tasks.jsonl")
