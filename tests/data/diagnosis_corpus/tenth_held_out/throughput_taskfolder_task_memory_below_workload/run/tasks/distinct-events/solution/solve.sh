#!/bin/bash
python3 -c "print(len(set(open('/app/events.log').read().splitlines())))" > /app/distinct.txt
