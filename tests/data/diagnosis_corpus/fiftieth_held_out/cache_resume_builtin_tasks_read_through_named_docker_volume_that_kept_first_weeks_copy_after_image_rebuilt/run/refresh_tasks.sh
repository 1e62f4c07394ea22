#!/bin/bash
# refresh_tasks.sh: the data team ships each week's tasks in an image; /data is a named volume so it is kept
# between runs (see docker-compose notes)
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_tasks_read_through_named_docker_volume_that_kept_first_weeks_copy_after_image_rebuilt/run
docker build -q -t evalteam/weekly-tasks-vpwdeu7b:latest tasks_image/
docker run --rm --network none -v weekly-tasks-vpwdeu7b:/data evalteam/weekly-tasks-vpwdeu7b:latest cat /data/string_match.jsonl > string_match.jsonl
echo "tasks: $(wc -l < string_match.jsonl) rows, sha1 $(sha1sum < string_match.jsonl | cut -c1-12)"
