"""open_questions.py: this month's open-question split, made from our multiple-choice bank (bank.jsonl).
The options are dropped (the model must name the answer itself); each task keeps the bank's answer field."""
import json

with open("bank.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{q['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote tasks.jsonl")
