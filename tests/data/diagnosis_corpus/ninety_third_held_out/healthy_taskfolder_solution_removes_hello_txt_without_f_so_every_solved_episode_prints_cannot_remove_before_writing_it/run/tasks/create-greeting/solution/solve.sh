#!/bin/bash
rm /app/hello.txt
echo 'Hello, Gym!' > /app/hello.txt
