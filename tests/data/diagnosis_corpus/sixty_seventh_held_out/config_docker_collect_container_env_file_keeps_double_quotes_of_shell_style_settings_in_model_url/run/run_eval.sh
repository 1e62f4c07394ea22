#!/bin/bash
# weekly eval; settings in eval.env, collect in the eval container
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url/run
source eval.env
echo "model server: $(curl -s $MODEL_URL/models)"
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent ${EVAL_ENV_NAME}_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h67-collect-40195 --env-file eval.env --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h67/.venv:/work/wt-h67/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h67:/work/wt-h67:ro -v /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url/run:/work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url/run -e PYTHONPATH=/work/wt-h67 -w /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url/run gym-pipeline/base:bookworm \
  sh -c 'exec /work/wt-h67/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" --env "$EVAL_ENV_NAME" --concurrency "$CONCURRENCY"'
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
