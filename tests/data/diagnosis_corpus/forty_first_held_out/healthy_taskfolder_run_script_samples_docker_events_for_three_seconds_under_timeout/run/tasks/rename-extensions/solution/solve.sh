#!/bin/bash
for f in /app/notes/*.txt; do mv "$f" "${f%.txt}.md"; done
