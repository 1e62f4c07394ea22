"""prep.py URL OUT: the labelling team's current sheet (CSV over HTTP) -> tasks.jsonl."""
import csv
import io
import json
import sys
import urllib.request

url, out = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(io.StringIO(urllib.request.urlopen(url).read().decode())))
with open(out, "w") as handle:
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        handle.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(rows)} tasks from {url}")
