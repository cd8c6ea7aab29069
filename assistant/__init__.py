"""ToA Light Assistant: reads the Tombs of Amascut light puzzle off the screen, solves it
exactly and marks the plates to step on; also a complete Lights Out engine."""

__version__ = "0.1.0"
