#!/bin/bash
# weekly eval: base questions + this week's hard-set shards from the lab share
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_prep_container_bind_mounts_lab_share_path_not_mounted_on_node_so_docker_creates_it_empty/run
docker run --rm --network none -v /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_prep_container_bind_mounts_lab_share_path_not_mounted_on_node_so_docker_creates_it_empty/run:/eval -v /tmp/ho-infra_docker_prep_co-rdl26_he/mnt/lab-share/labels/hard-set:/shards:ro -w /eval gym-pipeline/base:bookworm python3 prep.py
/work/wt-h66/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42579/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
