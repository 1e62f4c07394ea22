#!/bin/bash
# serve_best.sh READY_FILE: serve the checkpoint with the best validation accuracy (the trainer's val_summary.csv)
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/model_serving_builtin_serve_script_picks_best_checkpoint_by_sorting_percent_accuracy_as_text_so_9_8_beats_57_5/run
BEST=$(tail -n +2 checkpoints/val_summary.csv | sort -t, -k2 -r | head -1 | cut -d, -f1)
echo "best checkpoint by val accuracy: $BEST"
exec /work/wt-h71/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file "$1" --checkpoint "checkpoints/$BEST" --latency-ms 20
