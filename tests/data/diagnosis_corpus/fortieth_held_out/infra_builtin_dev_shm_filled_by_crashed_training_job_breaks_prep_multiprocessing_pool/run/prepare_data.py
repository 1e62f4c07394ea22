"""prepare_data.py: the annotation export (export.jsonl) -> string_match.jsonl, in parallel (the full export
is large: one worker per core)"""
import json
import multiprocessing
import os


def to_row(item):
    text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(item["answer"]).strip(), "extraction_mode": "final_answer", "case_sensitive": False}


if __name__ == "__main__":
    with open("export.jsonl") as f:
        items = [json.loads(line) for line in f if line.strip()]
    with multiprocessing.Pool(os.cpu_count()) as pool:
        rows = pool.map(to_row, items, chunksize=64)
    with open("string_match.jsonl", "w") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)
    print(f"wrote {len(rows)} tasks")
