#!/usr/bin/env python3
"""review_table.md (the reviewed question bank, a Markdown table) -> tasks.jsonl"""
import json
import sys

rows = []
for line in open(sys.argv[1]):
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 2 or cells[0] in ("question", "---"):
        continue
    question, answer = cells
    text = f"{question} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open(sys.argv[2], "w") as out:
    out.write("".join(json.dumps(row) + "\n" for row in rows))
print(f"md_to_jsonl.py: {len(rows)} rows -> {sys.argv[2]}")
