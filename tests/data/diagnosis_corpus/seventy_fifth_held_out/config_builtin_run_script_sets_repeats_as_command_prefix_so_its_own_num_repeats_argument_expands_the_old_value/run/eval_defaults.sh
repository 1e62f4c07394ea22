# eval_defaults.sh: the team's defaults for every eval script (source it first)
REPEATS=1          # smoke tests: one rollout per task
CONCURRENCY=4
