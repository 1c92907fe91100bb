"""``python -m mahjong_core``: the command line (``mahjong-core``) without the installed script."""

import sys

from .cli import main

sys.exit(main())
