"""make_tasks.py: the synthetic decimal-arithmetic set -> string_match.jsonl"""
import json
import operator

OPS = {"plus": operator.add, "minus": operator.sub, "times": operator.mul}
PROBLEMS = [(0.1, 'plus', 0.2), (1.1, 'times', 3), (0.7, 'plus', 0.1), (2.5, 'plus', 1.25), (1.2, 'minus', 1.0), (4.35, 'times', 100), (0.5, 'times', 0.5), (3.75, 'minus', 1.5)]

with open("string_match.jsonl", "w") as out:
    for a, op, b in PROBLEMS:
        text = f"What is {a} {op} {b}? End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(OPS[op](a, b)), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(PROBLEMS)} tasks")
