#!/bin/bash
sed -i 's/colour/color/g' /app/essay.txt
