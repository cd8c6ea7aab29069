"""Shipped calibration profiles (JSON), installed as the package ``assistant.presets``
and read with ``importlib.resources.files("assistant.presets")``."""
