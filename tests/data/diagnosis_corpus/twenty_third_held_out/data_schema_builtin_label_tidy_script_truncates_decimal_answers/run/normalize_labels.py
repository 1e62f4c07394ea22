"""Tidy the labels of the export: strip spaces, and write numbers without a trailing '.0' (42.0 -> 42)."""
import json
import sys

with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        row = json.loads(line)
        label = str(row["expected_answer"]).strip()
        try:
            label = str(int(float(label)))
        except ValueError:
            pass
        row["expected_answer"] = label
        out.write(json.dumps(row) + "\n")
