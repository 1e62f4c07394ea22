"""Shuffle the options of every mcqa row (the model picked 'A' too often in the old order)."""
import json
import random
import sys

source, target = sys.argv[1], sys.argv[2]
with open(source) as handle, open(target, "w") as out:
    for index, line in enumerate(handle):
        row = json.loads(line)
        texts = [next(iter(option.values())) for option in row["options"]]
        random.Random(index).shuffle(texts)
        letters = "ABCDEFGH"[:len(texts)]
        row["options"] = [{letter: text} for letter, text in zip(letters, texts)]
        message = row["responses_create_params"]["input"][0]["content"][0]
        question, _, instruction = message["text"].split("\n\n")
        block = "\n".join(f"{letter}) {text}" for letter, text in zip(letters, texts))
        message["text"] = f"{question}\n\n{block}\n\n{instruction}"
        out.write(json.dumps(row) + "\n")
print(f"shuffled the options of {index + 1} rows into {target}")
