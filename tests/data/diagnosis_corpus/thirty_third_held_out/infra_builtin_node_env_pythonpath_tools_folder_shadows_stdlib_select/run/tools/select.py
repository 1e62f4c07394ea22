"""select.py: pick the eval tasks of a difficulty band from a dataset (python3 select.py DATA LO HI)."""
import json
import sys


def main():
    lo, hi = int(sys.argv[2]), int(sys.argv[3])
    for line in open(sys.argv[1]):
        if lo <= json.loads(line).get("difficulty", 0) <= hi:
            print(line, end="")


if __name__ == "__main__":
    main()
