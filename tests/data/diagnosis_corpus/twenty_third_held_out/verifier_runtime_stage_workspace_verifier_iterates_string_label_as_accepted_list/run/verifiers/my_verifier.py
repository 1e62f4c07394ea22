"""Lenient grading: a response is right when it contains one of the accepted spellings of the answer."""


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\boxed{" in text:
        return text[text.rindex("\\boxed{") + 7:].split("}")[0].strip()
    return text.strip()


def score(row, response_text):
    answer = _final_answer(response_text).lower()
    # expected_answer holds the accepted spellings (["Hydrogen", "H2"], ...) as in the v2 export
    for accepted in row["expected_answer"]:
        if accepted.lower() in answer:
            return 1.0
    return 0.0
