"""Senet board firmware for the Raspberry Pi Pico; only hal.py touches the hardware."""
