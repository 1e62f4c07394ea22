"""Exact-answer scoring with our alias service (canonical spellings of names)."""
import time


def canonical(answer):
    time.sleep(0.5)  # a synchronous HTTP lookup to the alias service (about 500 ms a call)
    return answer.strip().lower()


def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(canonical(answer) == canonical(row["expected_answer"])), "extracted_answer": answer}
