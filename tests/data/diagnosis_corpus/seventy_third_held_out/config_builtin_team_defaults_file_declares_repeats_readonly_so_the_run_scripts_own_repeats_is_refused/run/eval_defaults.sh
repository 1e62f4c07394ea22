# eval_defaults.sh: the team's defaults for every eval script (source it first, then set your own)
readonly REPEATS=1          # smoke tests: one rollout per task
readonly CONCURRENCY=4
