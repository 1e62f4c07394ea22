#!/bin/bash
# run_weekly.sh WEEK: the weekly eval of RUN/WEEK/tasks.jsonl (the team's model server is always on port 56279)
WEEK=$1
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command/run
echo "== weekly eval $WEEK"
/work/wt-h60/.venv/bin/gym-pipeline materialize --input $WEEK/tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output $WEEK/rollouts_materialized_inputs.jsonl
# collect in the eval container; named so that it can be looked at afterwards
docker run --name weekly-collect-56279 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h60/.venv:/work/wt-h60/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h60:/work/wt-h60:ro -v /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command/run:/work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command/run -e PYTHONPATH=/work/wt-h60 -w /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command/run gym-pipeline/base:bookworm \
  /work/wt-h60/.venv/bin/python -m gym_pipeline.cli collect --inputs $WEEK/rollouts_materialized_inputs.jsonl --output $WEEK/rollouts.jsonl --model-url http://127.0.0.1:56279/v1 --env string_match --concurrency 4 \
  || docker start -a weekly-collect-56279   # the container is already there (a re-run): start it again
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs $WEEK/rollouts_materialized_inputs.jsonl --rollouts $WEEK/rollouts.jsonl
