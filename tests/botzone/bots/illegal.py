"""A Botzone bot for the tests that plays illegal moves: on its draw it discards a tile it does
not hold (``--hu``: declares a win it does not have); otherwise it passes.  Keep running, simple
interaction."""
import sys

hu = "--hu" in sys.argv
codes = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + [f"F{r}" for r in range(1, 5)] + [f"J{r}" for r in range(1, 4)]
n = int(sys.stdin.readline())
requests = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)][0::2]
hand: list = []
while True:
    w = requests[-1].split()
    if w[0] == "1":
        hand = w[5:18]
    if w[0] == "2":
        hand.append(w[1])
        print("HU" if hu else "PLAY " + next(c for c in codes if c not in hand))
    else:
        print("PASS")
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    requests.append(line.rstrip("\n"))
