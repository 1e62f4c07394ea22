"""prepare_data.py: questions.tsv (question<TAB>answer) -> tasks.jsonl, rows shaped like row_template.json
(the row template of the team's datasets, copied from the yes/no classifier set)"""
import copy
import json

with open("row_template.json") as f:
    TEMPLATE = json.load(f)

with open("questions.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\t")
        row = copy.deepcopy(TEMPLATE)
        text = question + " End your response with 'Final answer: <answer>'."
        row["responses_create_params"]["input"] = [{"role": "user", "type": "message",
                                                    "content": [{"type": "input_text", "text": text}]}]
        row["expected_answer"] = answer
        out.write(json.dumps(row) + "\n")
