"""to_gym.py: our questions.jsonl (question, answer) as Gym string_match tasks, with the team's template."""
import json

TEMPLATE = [
    {"role": "system",
     "content": "You are a careful assistant. {question} End your response with 'Final answer: <answer>'."},
]

with open("questions.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        messages = [dict(m, content=m["content"].format(question=q["question"])) for m in TEMPLATE]
        out.write(json.dumps({"responses_create_params": {"input": messages}, "expected_answer": q["answer"],
                              "extraction_mode": "final_answer"}) + "\n")
print("wrote tasks.jsonl")
