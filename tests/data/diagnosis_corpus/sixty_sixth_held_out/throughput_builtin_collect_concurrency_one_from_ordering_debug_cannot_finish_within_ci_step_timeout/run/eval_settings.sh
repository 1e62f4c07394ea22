# weekly eval settings
REPEATS=3
CONCURRENCY=1   # one request at a time while chasing the ordering bug (was 16)
