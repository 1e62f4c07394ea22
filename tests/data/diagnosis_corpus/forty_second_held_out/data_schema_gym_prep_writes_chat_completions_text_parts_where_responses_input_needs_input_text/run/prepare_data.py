"""prepare_data.py: questions.tsv (question<TAB>answer) -> tasks.jsonl, in the request format of our chat tools"""
import json

with open("questions.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\t")
        text = question + " End your response with 'Final answer: <answer>'."
        # one user message, content parts as in our chat-completions tools
        row = {"responses_create_params": {"input": [{"role": "user",
                                                      "content": [{"type": "text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
