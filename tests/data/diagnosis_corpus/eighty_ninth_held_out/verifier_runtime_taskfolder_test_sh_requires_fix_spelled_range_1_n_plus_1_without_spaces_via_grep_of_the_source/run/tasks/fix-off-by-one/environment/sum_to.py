import sys


def sum_to(n):
    total = 0
    for i in range(1, n):
        total += i
    return total


print(sum_to(int(sys.argv[1])))
