#!/bin/bash
echo 'Hallo, Gym!' > /app/hello.txt
