# weekly eval settings (any of them can be set in the environment to override)
ENV=${ENV:-string_match}          # which environment (dataset and verifier)
REPEATS=${REPEATS:-3}
CONCURRENCY=${CONCURRENCY:-4}
