"""Build tasks.jsonl from the prompts export and the labels column exported from the sheet."""
import json
import sys

prompts, labels, out = sys.argv[1:4]
with open(out, "w") as target:
    for line, label in zip(open(prompts), open(labels)):
        row = json.loads(line)
        row["expected_answer"] = label.rstrip("\n")
        target.write(json.dumps(row) + "\n")
print("joined")
