"""The control window's problem reports: the global hotkey and the button that open the
report dialog on what the flight recorder holds, and the writer that saves it off the
GUI thread (see :mod:`assistant.recorder` and docs/adr/0074-flight-recorder.md).

Mixed into :class:`assistant.gui.app.ControlWindow`, which owns the recorder, the report
button and the status line used here.
"""

from __future__ import annotations

from PyQt6.QtCore import Qt

from assistant.gui.hotkey import GlobalHotkey
from assistant.recorder import new_report_path, settings_in_use

__all__ = ["ProblemReports"]


class ProblemReports:
    """Opening, saving and reporting on a problem report; the hotkey that opens it."""

    def _register_hotkey(self) -> None:
        """(Again) the settings' global hotkey; the button's tip says it or why not."""
        if self.hotkey is not None:
            self.hotkey.unregister()
            self.hotkey.deleteLater()
        self.hotkey = GlobalHotkey(self.settings.report_hotkey, self)
        self.hotkey.pressed.connect(self.open_report_dialog)
        problem = self.hotkey.register()
        key = self.settings.report_hotkey
        tip = ("Save the last seconds the assistant read (the game window's pictures, what "
               "it read and the marks it showed) as a folder on this computer, to look "
               "into a wrong or missing overlay. You see what is in it first.")
        if problem:
            tip += " " + problem
        elif key:
            tip += f" Hotkey, also in the game: {key}."
        self.report_button.setToolTip(tip)

    def open_report_dialog(self) -> None:
        """Take what the recorder holds now and show it; Save writes it off this thread."""
        from assistant.gui.report_dialog import ReportDialog

        if self.report_dialog is not None:
            self.report_dialog.raise_()
            return
        snapshot = self.recorder.snapshot()
        if not snapshot.records:
            self.set_status("Nothing to report yet: the assistant has not read the game "
                            "since it started. Start the overlay and try again.")
            return
        dialog = ReportDialog(snapshot, new_report_path(self.reports_folder), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.save_report(dialog))
        dialog.destroyed.connect(self._report_dialog_closed)
        self.report_dialog = dialog
        self.place_new_window(dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def _report_dialog_closed(self) -> None:
        self.report_dialog = None

    def save_report(self, dialog) -> None:
        """Write the report the dialog shows, in a thread of its own."""
        from assistant.gui.report_dialog import ReportWriter

        about = settings_in_use(self.settings, self.profile, self.profile_path)
        writer = ReportWriter(dialog.snapshot, dialog.destination(), dialog.note(), about,
                              self)
        writer.finished_saving.connect(self._report_saved)
        writer.finished.connect(self._writer_done)
        self.report_writer = writer
        self.set_status("Saving the report…")
        writer.start()

    def _writer_done(self) -> None:
        writer, self.report_writer = self.report_writer, None
        if writer is not None:
            writer.deleteLater()

    def _report_saved(self, path, error) -> None:
        if path is None:
            self.set_status(f"{error} The assistant goes on reading.")
        else:
            self.set_status(f"Report saved in {path}. Nothing was sent anywhere: pass the "
                            "folder on yourself if you want it looked into.")
