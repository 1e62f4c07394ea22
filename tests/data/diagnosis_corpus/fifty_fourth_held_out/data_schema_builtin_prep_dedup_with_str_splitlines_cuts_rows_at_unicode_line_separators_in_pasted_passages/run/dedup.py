"""dedup.py: drop the duplicate rows of the labelling tool's export (rows edited twice are exported twice)."""
import sys

text = open(sys.argv[1], encoding="utf-8").read()
lines = [line for line in text.splitlines() if line.strip()]
unique = list(dict.fromkeys(lines))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("\n".join(unique) + "\n")
print(f"dedup: {len(unique)} unique rows of {len(lines)}")
