"""prep.py: the capitals quiz from the atlas team's answer key (answer_key.tsv) as string_match tasks."""
import json

with open("answer_key.tsv") as src, open("tasks.jsonl", "w") as out:
    next(src)  # header
    for line in src:
        question, answer = line.rstrip("\n").split("\t")
        answer = answer.split()[0]  # drop the atlas notes, e.g. "Canberra (since 1913)" -> "Canberra"
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote tasks.jsonl")
