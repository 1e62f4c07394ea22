"""prep.py: questions.csv (question,answer) -> string_match.jsonl, rows built in a process pool."""
import csv
import json
from multiprocessing import Pool


def build(pair):
    question, answer = pair
    text = f"{question} End your response with 'Final answer: <answer>'."
    return json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                       "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})


if __name__ == "__main__":
    with open("questions.csv", newline="", encoding="utf-8") as sheet:
        pairs = [(row["question"], row["answer"]) for row in csv.DictReader(sheet)]
    with Pool(2) as pool:
        lines = pool.map(build, pairs)
    with open("string_match.jsonl", "w") as out:
        out.write("".join(line + "\n" for line in lines))
    print(f"prep: {len(lines)} rows written")
