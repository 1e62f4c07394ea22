"""prepare_data.py: answer_key.tsv (question<TAB>answer, LaTeX answers) -> tasks.jsonl"""
import json

with open("answer_key.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\t")
        answer = answer.replace("\\", "\\\\")  # escape backslashes for JSON
        text = question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
