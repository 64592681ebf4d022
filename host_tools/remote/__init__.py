"""Remote play on the laptop: the room's protocol (firmware/room.py) on a
paho-mqtt connection, for a USB board (``senet-board link``) and the
simulator (``senet-board sim --room``)."""
