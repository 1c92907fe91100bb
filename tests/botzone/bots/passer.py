"""A legal Botzone bot for the tests: discards the tile it draws, passes everything else.
Simple interaction, a fresh process per request (it reads the whole history)."""
import sys

lines = sys.stdin.read().split("\n")
n = int(lines[0])
request = lines[2 * n - 1].split()
print(f"PLAY {request[1]}" if request[0] == "2" else "PASS")
