"""``python -m mahjong_core``: the command line (``mahjong-core``) without the installed script."""

import sys

from .cli import main

if __name__ == "__main__":  # importing the module (pkgutil.walk_packages, documentation tools) runs nothing
    sys.exit(main())
