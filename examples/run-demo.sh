#!/usr/bin/env bash
# make run: placeholder until the demo lands.
echo "demo not built yet"
