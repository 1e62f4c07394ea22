#!/bin/bash
echo 'Hello, Gym!' > /app/hello.txt
