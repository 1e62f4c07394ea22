"""prepare_data.py: questions/q_NN.txt + answers/a_NN.txt (the annotation tool's export) -> string_match.jsonl"""
import json
import os

with open("string_match.jsonl", "w") as out:
    for q_name, a_name in zip(os.listdir("questions"), os.listdir("answers")):
        question = open(os.path.join("questions", q_name)).read().strip()
        answer = open(os.path.join("answers", a_name)).read().strip()
        text = question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
