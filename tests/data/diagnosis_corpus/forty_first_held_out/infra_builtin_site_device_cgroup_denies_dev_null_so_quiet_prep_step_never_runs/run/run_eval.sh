#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/infra_builtin_site_device_cgroup_denies_dev_null_so_quiet_prep_step_never_runs/run
echo '== weekly eval'
echo '== prepare the tasks (quiet: the converter is chatty)'
python3 prepare_data.py > /dev/null
echo "prepare_data.py exit $?"
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43801/v1 --env string_match --concurrency 4
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
