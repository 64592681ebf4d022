"""Laptop tools for the Senet board: the command line (``cli``), the virtual
board (``sim``), a real board on USB (``board``), the hardware's tables,
drawings and CAD (``hardware``), the words of the page (``words``) and the
computer's tournament (``tournament``). docs/dev/laptop-tools.md maps them."""

import os

# The folder holding engine/, firmware/ and host_tools/: a clone of the
# repository, or site-packages in an installed copy.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
