#!/bin/bash
# weekly eval: record this run's settings next to its results, then submit the job that reads them
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/config_slurm_settings_file_written_with_quoted_heredoc_keeps_model_url_unexpanded/run
URL=$(cat model_url.txt)
cat > settings.env <<'EOF'
MODEL_URL=$URL
CONCURRENCY=4
EOF
cat settings.env
sbatch --wait eval.sbatch
