"""prep.py EXPORT OUT: the review tool's JSON export to our string_match task rows."""
import json
import sys

PROMPT = "{question} End your response with 'Final answer: <answer>'."

export = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in export["items"]:
        # the field was renamed answer -> answers in review tool 3.x; take whichever is there
        label = item.get("answer") or item.get("answers")
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text",
                                                                   "text": PROMPT.format(question=item["question"])}]}]},
               "expected_answer": str(label), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(export['items'])} tasks to {sys.argv[2]}")
