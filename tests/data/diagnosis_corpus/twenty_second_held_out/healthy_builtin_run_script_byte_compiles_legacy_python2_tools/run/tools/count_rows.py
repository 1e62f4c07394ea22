import sys

print(sum(1 for _ in open(sys.argv[1])))
