#!/bin/bash
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/config_slurm_submit_gives_array_option_after_script_name_so_sbatch_passes_it_to_the_script_and_one_job_runs/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_*.jsonl
