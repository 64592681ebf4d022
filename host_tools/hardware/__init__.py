"""The board's hardware as data: the pin rules and the pin map files
(``pins``), the power budget (``power``), where each square is wired
(``wiring``), the text of firmware/pins.py, firmware/boards.py and the doc
tables (``text``), the wiring diagram (``svg``), the files all of them derive
(``generated``), the wooden board's CAD (``cad/``) and the two command lines
(``command``; ``python -m host_tools.hardware``).
"""
