"""Build the eval rows from the reviewed question sheet (questions.jsonl: question, answer, difficulty)."""
import json
import sys

with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        item = json.loads(line)
        question = item["question"].strip()
        prompt = "{question} Put your final answer in \\boxed{{}}."
        row = {
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": prompt}]}]},
            "expected_answer": item["answer"],
            "extraction_mode": "boxed",
            "difficulty": item["difficulty"],
        }
        out.write(json.dumps(row) + "\n")
print("wrote", sys.argv[2])
