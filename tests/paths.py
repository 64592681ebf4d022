"""Where the repository and its tests are, for test modules in any folder
under tests/: the one place that counts directories up from a file."""

import os

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
