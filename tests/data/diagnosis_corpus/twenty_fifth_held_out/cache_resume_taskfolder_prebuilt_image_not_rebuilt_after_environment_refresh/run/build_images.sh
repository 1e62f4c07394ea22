#!/bin/bash
# build the task images once; the tasks name them in task.toml ([environment] docker_image) so runs start fast
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run
echo "build_images.sh: building nightly-tasks/count-error-lines:w604745"
docker build -t nightly-tasks/count-error-lines:w604745 tasks/count-error-lines/environment
