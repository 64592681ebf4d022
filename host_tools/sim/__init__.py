"""The virtual board: `senet-board sim` runs the real firmware App behind a
browser page (``command``), around a ``Sim`` (``board``) made of parts that
know no rule (``pieces``, ``pace``, ``checks``, ``view``, ``clock``); ``server``
serves the page (``web/``) and the API, to ``sim`` and to ``show`` alike.
"""
