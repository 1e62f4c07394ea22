"""prep.py: answer_key.tsv (question<TAB>answer, from the labelling sheet) -> string_match.jsonl."""
import json


def norm(answer: str) -> str:
    """One spelling per number: '3.0', '3.00' and '3' all become '3'; words stay as they are."""
    try:
        return "%g" % float(answer)
    except ValueError:
        return answer.strip()


rows = []
with open("answer_key.tsv", encoding="utf-8") as f:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\n").split("\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": norm(answer), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
