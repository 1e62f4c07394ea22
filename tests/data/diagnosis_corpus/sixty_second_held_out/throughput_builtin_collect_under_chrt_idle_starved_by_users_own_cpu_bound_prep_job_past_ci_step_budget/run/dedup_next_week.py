"""dedup_next_week.py: near-duplicate scan of next week's candidate questions (MinHash over shingles, 4 workers)."""
import hashlib
import time
from multiprocessing import Pool

BUDGET_S = 110  # the scan is cut off after this long; whatever it found is kept


def scan(worker: int) -> int:
    end, found, doc = time.time() + BUDGET_S, 0, 0
    while time.time() < end:
        text = f"candidate question {worker}-{doc} about the capital of a country in the atlas"
        shingles = {text[i:i + 5] for i in range(len(text) - 4)}
        signature = [min(int(hashlib.sha1(f"{seed}{s}".encode()).hexdigest()[:8], 16) for s in shingles)
                     for seed in range(16)]
        found += signature[0] % 97 == 0
        doc += 1
    return found


if __name__ == "__main__":
    with Pool(4) as pool:  # the workstation's setting
        print("near-duplicates flagged:", sum(pool.map(scan, range(4))))
