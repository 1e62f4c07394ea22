#!/usr/bin/env python3
"""raw.jsonl (questions + answers) -> eval.jsonl; the prompt is put in the model's chat format here, as in the SFT
data pipeline, so that the eval sees exactly what the model was trained on"""
import json
import sys

TEMPLATE = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n"

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        content = row["responses_create_params"]["input"][0]["content"][0]
        content["text"] = TEMPLATE.format(q=content["text"])
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
