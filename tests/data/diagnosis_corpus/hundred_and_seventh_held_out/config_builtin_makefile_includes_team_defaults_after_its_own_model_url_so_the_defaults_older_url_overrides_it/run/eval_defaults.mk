# eval_defaults.mk: the team's defaults for eval Makefiles (copied from evals-common, step_0100 review)
DATASET = string_match.jsonl
NUM_REPEATS = 3
CONCURRENCY = 4
MODEL_URL = http://127.0.0.1:41247/v1
