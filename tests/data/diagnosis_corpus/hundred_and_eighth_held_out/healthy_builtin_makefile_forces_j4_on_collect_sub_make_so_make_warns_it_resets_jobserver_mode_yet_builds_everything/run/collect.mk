# collect.mk: the collect step (shared with the nightly smoke eval, which runs it on its own)
GP := /work/h108/.venv/bin/gym-pipeline

rollouts.jsonl: rollouts_materialized_inputs.jsonl
	$(GP) collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency 4
