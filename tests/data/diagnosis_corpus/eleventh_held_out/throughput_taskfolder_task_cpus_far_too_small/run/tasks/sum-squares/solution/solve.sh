#!/bin/bash
python3 -c "print(sum(i * i for i in range(1, 10000001)))" > /app/sum.txt
