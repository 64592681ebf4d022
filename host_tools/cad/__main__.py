import sys

from host_tools.cad.generate import main

sys.exit(main())
