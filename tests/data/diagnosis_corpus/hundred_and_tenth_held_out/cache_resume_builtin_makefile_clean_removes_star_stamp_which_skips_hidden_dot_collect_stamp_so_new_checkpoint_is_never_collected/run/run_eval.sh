#!/bin/bash
# weekly eval of the new checkpoint: clean, then make eval
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/cache_resume_builtin_makefile_clean_removes_star_stamp_which_skips_hidden_dot_collect_stamp_so_new_checkpoint_is_never_collected/run
make clean
make eval MODEL_URL=http://127.0.0.1:34209/v1
ls -la
