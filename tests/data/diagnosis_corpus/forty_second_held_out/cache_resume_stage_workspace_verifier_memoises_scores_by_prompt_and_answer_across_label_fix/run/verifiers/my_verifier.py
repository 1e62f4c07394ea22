"""my_verifier.py: exact answers, case-insensitive. Scores are memoised on disk (verifiers/.score_cache.json):
the same answer to the same prompt is never scored twice, across runs."""
import hashlib
import json
import re
import threading
from pathlib import Path

FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)
CACHE = Path(__file__).with_name(".score_cache.json")
LOCK = threading.Lock()


def _key(row, answer):
    prompt = json.dumps(row["responses_create_params"], sort_keys=True)
    return hashlib.sha1(f"{prompt}\x00{answer}".encode()).hexdigest()


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    key = _key(row, answer)
    with LOCK:
        cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        if key not in cache:
            cache[key] = 1.0 if answer is not None and answer.lower() == row["expected_answer"].lower() else 0.0
            CACHE.write_text(json.dumps(cache))
        reward = cache[key]
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
