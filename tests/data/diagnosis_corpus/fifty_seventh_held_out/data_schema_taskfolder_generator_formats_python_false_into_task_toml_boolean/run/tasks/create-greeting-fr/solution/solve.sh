#!/bin/bash
echo 'Bonjour, Gym!' > /app/hello.txt
