import sys

from host_tools.hardware.command import main

sys.exit(main())
