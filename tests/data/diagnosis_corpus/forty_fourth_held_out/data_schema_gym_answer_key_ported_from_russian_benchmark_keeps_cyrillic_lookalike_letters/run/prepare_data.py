"""prepare_data.py: answer_key_ru_port.tsv (the quiz ported from the team's Russian benchmark) -> tasks.jsonl"""
import json

with open("answer_key_ru_port.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w", encoding="utf-8") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\t")
        text = question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
