"""translate.py: this month's German split of our capitals quiz. Questions come from the translators'
table (questions_de.json, English question -> German question); each task keeps the quiz's answer field."""
import json

table = json.load(open("questions_de.json"))
with open("quiz_en.jsonl") as src, open("tasks_de.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{table[q['question']]} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False},
            ensure_ascii=False) + "\n")
print("wrote tasks_de.jsonl")
