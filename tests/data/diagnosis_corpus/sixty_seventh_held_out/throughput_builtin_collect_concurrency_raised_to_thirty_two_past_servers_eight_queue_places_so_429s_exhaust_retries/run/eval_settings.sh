# weekly eval settings
REPEATS=3
CONCURRENCY=32   # was 4; more in flight = done sooner
