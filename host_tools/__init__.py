"""Laptop tools for the Senet board: simulator, deploy, monitor, wiring check."""
