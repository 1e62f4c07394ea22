"""prep.py: the labelling tool's export.csv -> string_match.jsonl."""
import csv
import json


def build_row(pair):
    question, answer = pair
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                  "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}


with open("export.csv", newline="") as f:
    pairs = [(r["question"], r["answer"]) for r in csv.DictReader(f)]

import multiprocessing
import time


def slow_build_row(pair):
    time.sleep(0.05 * (len(pair[0]) % 5))  # (the real tool calls the tokenizer service here)
    return build_row(pair)


if __name__ == "__main__":
    # imap_unordered: rows come back in whatever order the workers finish them
    with multiprocessing.Pool(4) as pool, open("string_match.jsonl", "w") as out:
        for row in pool.imap_unordered(slow_build_row, pairs):
            out.write(json.dumps(row) + "\n")
    print(f"prep: {len(pairs)} rows written (order not kept)")
