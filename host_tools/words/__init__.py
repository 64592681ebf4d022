"""What the board asks, in words, for the simulator's page and for ``show``.

``explain`` picks sentence keys from what the board shows and reports; the
page words them from ``i18n/<lang>.json``, one file a language, which a
translator edits without touching the code.
"""

import os

I18N_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "i18n")
LANGUAGES = ("en", "hu", "ru")          # i18n/<lang>.json
