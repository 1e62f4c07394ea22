"""my_verifier.py: the answer after 'Final answer:', normalised (no thousands separators, no full stops, no
spaces), compared with the label normalised the same way."""
MARK = "final answer:"
# one normaliser per character to drop, so that a label '1000' matches an answer '1,000' or '1 000.'
NORMALISERS = [lambda s: s.replace(ch, "") for ch in ",. "]


def normalise(text):
    text = str(text).strip().lower()
    for drop in NORMALISERS:
        text = drop(text)
    return text


def score(row, response_text):
    text = response_text.lower()
    answer = text.rsplit(MARK, 1)[-1] if MARK in text else ""
    reward = 1.0 if normalise(answer) == normalise(row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": answer.strip(), "expected_answer": row["expected_answer"]}
