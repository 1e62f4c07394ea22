# weekly eval settings
# repeats per agent (JSON, as `materialize --num-repeats` takes it): 5 for the variance study, 1 for anything else
REPEATS='{"string_match_agent": 5, "_default": 1}'
