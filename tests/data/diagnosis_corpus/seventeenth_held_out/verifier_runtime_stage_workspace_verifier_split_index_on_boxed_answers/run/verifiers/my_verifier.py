"""Our exact-answer verifier: the text after 'Final answer:' must equal the label."""


def score(row, response_text):
    answer = response_text.split("Final answer:")[1].strip().rstrip(".")
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
