#!/bin/bash
grep -c ERROR /app/server.log > /app/count.txt
