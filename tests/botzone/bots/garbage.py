"""A Botzone bot for the tests that answers garbage (JSON interaction, keep running)."""
import json
import sys

sys.stdin.readline()
while True:
    print(json.dumps({"response": "HELLO WORLD"}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    if not sys.stdin.readline():
        break
