#!/bin/bash
# weekly eval
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_records_umask_and_mount_options_of_its_run_folder/run
echo '== weekly eval'
# for the storage team's ticket about slow scratch: where this run folder lives and with which options
echo "umask $(umask)"
findmnt -T . -o TARGET,SOURCE,FSTYPE,OPTIONS || echo 'findmnt failed'
stat -f -c 'free blocks %a of %b, free inodes %d of %c' .
/work/wt-h50/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h50/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36557/v1 --env string_match --concurrency 4
/work/wt-h50/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
