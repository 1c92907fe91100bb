import sys
from pathlib import Path

# bench modules import each other by plain name (common, peers)
sys.path.insert(0, str(Path(__file__).resolve().parent))
