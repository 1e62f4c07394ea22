"""prep.py: the labelling sheet (questions.csv) -> tasks.jsonl.
Parsing the full export is slow, so parsed sheets are kept in .prep_cache (shelve), keyed by the sheet's path."""
import csv
import json
import shelve

SHEET = "questions.csv"

with shelve.open(".prep_cache") as cache:
    if SHEET in cache:
        rows = cache[SHEET]
        print(f"prep: {len(rows)} rows of {SHEET} from cache")
    else:
        with open(SHEET, newline="") as handle:
            rows = list(csv.DictReader(handle))
        cache[SHEET] = rows
        print(f"prep: parsed {len(rows)} rows of {SHEET}")

with open("tasks.jsonl", "w") as out:
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: wrote {len(rows)} tasks to tasks.jsonl")
