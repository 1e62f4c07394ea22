#!/bin/bash
sort -u /app/words.txt > /app/sorted.txt
