#!/bin/bash
# refresh_inputs.sh: this week's task inputs go to shared-data/ (one copy), linked from the task folders
cd "$(dirname "$0")"
mkdir -p shared-data
printf 'pear\napple\nfig\napple\nbanana\nfig\ncherry\nbanana\npear\n' > shared-data/words.txt
ln -sfn ../../../shared-data/words.txt tasks/sort-unique-words/environment/words.txt
ls -l tasks/sort-unique-words/environment/
