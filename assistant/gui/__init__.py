"""The windows: the only package that imports PyQt6.

Modules here that end in ``_model`` are plain Python (no Qt) so their rules are tested
without a screen; the widget modules are thin views that call them. Importing this
package itself imports no Qt.
"""
