import re


def score(row, response_text):
    boxed = re.search(r"\\boxed\{([^}]*)\}", response_text)
    answer = boxed.group(1) if boxed else response_text.strip().splitlines()[-1]
    answer = answer.removeprefix("Final answer:").strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
