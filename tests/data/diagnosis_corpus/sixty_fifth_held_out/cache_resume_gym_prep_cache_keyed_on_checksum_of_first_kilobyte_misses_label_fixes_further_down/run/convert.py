"""convert.py: the labelling team's quiz export (one JSON object a line) as string_match tasks."""
import json
import sys

for line in sys.stdin:
    q = json.loads(line)
    text = f"{q['question']} End your response with 'Final answer: <answer>'."
    print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                             "content": [{"type": "input_text", "text": text}]}]},
                      "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False}))
