"""A Botzone bot for the tests that never answers."""
import time

time.sleep(60)
