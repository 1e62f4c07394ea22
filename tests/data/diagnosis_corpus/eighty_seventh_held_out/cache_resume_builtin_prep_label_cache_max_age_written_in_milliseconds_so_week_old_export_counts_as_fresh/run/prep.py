"""prep.py: labels from the label service's export (slow to fetch) -> string_match.jsonl.

The export is cached locally for six hours.
"""
import csv
import json
import os
import shutil
import sys
import time

SOURCE, CACHE = sys.argv[1], os.path.expanduser(os.environ.get("LABEL_CACHE", "~/.cache/labels.csv"))
MAX_AGE = 6 * 60 * 60 * 1000  # six hours

age = time.time() - os.path.getmtime(CACHE) if os.path.exists(CACHE) else None
if age is not None and age < MAX_AGE:
    print(f"labels: using the cached export ({age / 3600:.0f} h old)")
else:
    print("labels: fetching the export")
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    shutil.copy(SOURCE, CACHE)
with open(CACHE, newline="") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              "expected_answer": row["answer"], "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\n")
