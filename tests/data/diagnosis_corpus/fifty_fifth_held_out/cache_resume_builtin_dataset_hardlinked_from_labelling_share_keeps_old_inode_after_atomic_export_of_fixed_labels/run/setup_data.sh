#!/bin/bash
# setup_data.sh: the dataset comes from the labelling team's share; a hard link (not a copy: no stale copies;
# not a symlink: it survives the share being remounted)
SHARE=/tmp/ho-cache_resume_builtin-x7co9kdz/share/labels
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/cache_resume_builtin_dataset_hardlinked_from_labelling_share_keeps_old_inode_after_atomic_export_of_fixed_labels/run
mkdir -p data
ln -f $SHARE/string_match.jsonl data/string_match.jsonl && echo "linked data/string_match.jsonl"
