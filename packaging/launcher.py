"""Entry point of the packaged app: the same `dfd` command line (no arguments opens the app)."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
