#!/bin/bash
# prep.sh: this week's labelling sheet -> string_match.jsonl
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/data_schema_builtin_prep_transliterates_labelling_sheet_to_ascii_with_iconv_so_accented_labels_lose_accents/run
# the team's old dedup tool mangles multi-byte characters: make the sheet plain ASCII first
iconv -f utf-8 -t ascii//TRANSLIT questions.csv > questions_ascii.csv
/work/wt-h69/.venv/bin/python sheet_to_jsonl.py questions_ascii.csv > string_match.jsonl
echo "prep: $(wc -l < string_match.jsonl) questions"
