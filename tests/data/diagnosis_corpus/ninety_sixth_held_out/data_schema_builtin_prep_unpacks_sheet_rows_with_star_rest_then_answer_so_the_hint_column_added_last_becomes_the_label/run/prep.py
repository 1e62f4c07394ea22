"""prep.py SHEET OUT: this week's labelling sheet (a JSON export of the review tool) to our task rows."""
import json
import sys

PROMPT = "{question} End your response with 'Final answer: <answer>'."

sheet = json.load(open(sys.argv[1]))
# the review tool exports each row as a list: [question, answer, hint]; keep answer, drop the reviewer's hint
with open(sys.argv[2], "w") as out:
    for question, *rest, answer in sheet["rows"]:
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text",
                                                                   "text": PROMPT.format(question=question)}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"wrote {len(sheet['rows'])} tasks to {sys.argv[2]}")
