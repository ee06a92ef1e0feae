"""Exits with status 3 when asked ``mep``, complaining on standard error."""

import sys

if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip() == "mep":
            sys.stderr.write("fatal: cannot load my weights\n")
            sys.exit(3)
