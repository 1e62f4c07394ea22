"""my_verifier.py: exact answers after 'Final answer:'. Answers are normalised to NFC and
compared as UTF-8 bytes (models sometimes return decomposed accents)."""
import re
import unicodedata

FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)


def _normal(text):
    return unicodedata.normalize("NFC", text.strip().rstrip(".")).encode("utf-8")


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = _normal(found[-1]) if found else None
    reward = 1.0 if answer is not None and answer == row["expected_answer"].strip() else 0.0
    return {"reward": reward, "extracted_answer": answer.decode() if answer else None,
            "expected_answer": row["expected_answer"]}
