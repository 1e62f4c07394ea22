#!/usr/bin/env python3
"""plot_rewards.py: a bar chart of the mean reward a task (the team's notebook style)"""
import json

import seaborn as sns

rows = [json.loads(line) for line in open("rollouts.jsonl")]
sns.barplot(x=[r["task_index"] for r in rows], y=[r["reward"] for r in rows]).figure.savefig("rewards.png")
