"""Convert the reviewed QA set (YAML) to the JSONL rows of the eval."""
import json
import sys

import yaml

items = yaml.safe_load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(items)} rows to {sys.argv[2]}")
