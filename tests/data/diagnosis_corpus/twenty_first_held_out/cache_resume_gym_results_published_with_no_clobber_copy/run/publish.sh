#!/bin/bash
# publish the eval results for the team (never overwrite a teammate's files)
mkdir -p /work/wt-h21/tests/data/diagnosis_corpus/held_out/cache_resume_gym_results_published_with_no_clobber_copy/run/shared/evals/trivia
cp -rnv /work/wt-h21/tests/data/diagnosis_corpus/held_out/cache_resume_gym_results_published_with_no_clobber_copy/run/results/. /work/wt-h21/tests/data/diagnosis_corpus/held_out/cache_resume_gym_results_published_with_no_clobber_copy/run/shared/evals/trivia/
