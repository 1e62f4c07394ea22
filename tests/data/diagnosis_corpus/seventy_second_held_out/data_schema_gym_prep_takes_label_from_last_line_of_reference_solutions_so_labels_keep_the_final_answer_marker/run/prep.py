"""prep.py: reference.jsonl (question + the reference solution the annotators wrote) -> tasks.jsonl."""
import json

with open("reference.jsonl") as source, open("tasks.jsonl", "w") as out:
    for line in source:
        item = json.loads(line)
        # the label is the last line of the reference solution
        label = item["reference_solution"].strip().splitlines()[-1].strip()
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("prep: tasks.jsonl written")
