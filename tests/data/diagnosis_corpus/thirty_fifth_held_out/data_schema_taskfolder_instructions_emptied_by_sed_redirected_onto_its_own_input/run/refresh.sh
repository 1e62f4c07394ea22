#!/bin/bash
# refresh.sh: the new house style says 'the file', not 'a file', in every instruction
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input/run/tasks
for f in */instruction.md; do
  sed 's/ a file/ the file/g' "$f" > "$f"
done
wc -c */instruction.md
