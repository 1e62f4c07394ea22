"""prep.py: our quiz questions (quiz.jsonl: question, wiki) as string_match tasks; the answer is the linked
Wikipedia article's title (the wiki field, e.g. https://en.wikipedia.org/wiki/Canberra)."""
import json
from urllib.parse import unquote

with open("quiz.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        title = unquote(q["wiki"].rsplit("/wiki/", 1)[1]).replace("_", " ")
        text = f"{q['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": title, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print("wrote tasks.jsonl")
