# the team's generation settings for the weekly eval
RESPONSES_OVERRIDES='{"input": [{"role": "system", "type": "message", "content": [{"type": "input_text", "text": "You are a careful assistant. Think briefly, then answer."}]}], "temperature": 0.2}'
