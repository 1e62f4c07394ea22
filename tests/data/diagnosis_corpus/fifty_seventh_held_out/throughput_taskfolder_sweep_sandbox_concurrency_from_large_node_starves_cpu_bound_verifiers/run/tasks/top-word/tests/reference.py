"""reference.py: the reference answer of top-word, recounted from the task's text (the slow, obviously right way)."""
import sys

text = open("/app/text.txt").read().lower()
best, best_count = None, -1
for word in sorted(set(text.split())):
    count = 0
    for _ in range(400000):  # recount: the reference must not trust one pass over a cached split
        count += sum(1 for w in text.split() if w == word)
    if count > best_count:
        best, best_count = word, count
print(best)
