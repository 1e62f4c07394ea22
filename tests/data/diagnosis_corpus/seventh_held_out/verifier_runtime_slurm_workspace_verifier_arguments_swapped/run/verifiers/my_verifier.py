"""Exact-answer scoring (ported from our offline grader, which is called as grade(answer, example))."""


def score(response_text, row):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
