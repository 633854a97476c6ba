import sys

sys.exit(3)  # ends the process before a single test runs
