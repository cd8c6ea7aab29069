"""Saving a problem report from the control window: what is in it first, then the save.

The player sees what the report holds before anything is written (how many seconds and
frames, the first and last picture: the game window's pixels only) and may add a
sentence. The writing runs in a thread of its own (:class:`ReportWriter`), so neither
the window nor the live loop waits for the disk.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PyQt6.QtCore import Qt, QThread, pyqtSignal
from PyQt6.QtGui import QImage, QPixmap
from PyQt6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from assistant.recorder import ReportSaveError, Snapshot, report_bytes, save_report

__all__ = ["REPORT_DIALOG_TITLE", "ReportDialog", "ReportWriter", "thumbnail"]

REPORT_DIALOG_TITLE = "Save a problem report — ToA Light Assistant"
THUMB_WIDTH = 260


def thumbnail(pixels: np.ndarray, width: int = THUMB_WIDTH) -> QPixmap:
    """A grab (BGRA or BGR) as a pixmap ``width`` wide."""
    image = np.ascontiguousarray(pixels if pixels.shape[2] == 4 else np.dstack(
        [pixels, np.full(pixels.shape[:2], 255, np.uint8)]))
    height, cols = image.shape[:2]
    qimage = QImage(image.data, cols, height, 4 * cols, QImage.Format.Format_RGB32).copy()
    return QPixmap.fromImage(qimage).scaledToWidth(
        width, Qt.TransformationMode.SmoothTransformation)


class ReportDialog(QDialog):
    """Shows what ``snapshot`` holds; Save accepts with :meth:`note` and :meth:`destination`."""

    def __init__(self, snapshot: Snapshot, destination: Path, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(REPORT_DIALOG_TITLE)
        self.snapshot = snapshot
        self._destination = Path(destination)
        pictures = snapshot.pictures()
        megabytes = report_bytes(snapshot) / 2**20
        summary = QLabel(
            f"The last {snapshot.duration:.1f} seconds: {snapshot.frames} frames, "
            f"{len(pictures)} pictures of the game window (about {megabytes:.0f} MB), what "
            "the assistant read in each and the marks it showed, this program's version "
            "and settings."
        )
        summary.setWordWrap(True)
        private = QLabel(
            "Only the game window's pixels are in it. Nothing is sent anywhere: the report "
            "is a folder on this computer that you can look through and pass on yourself."
        )
        private.setWordWrap(True)
        private.setStyleSheet("color: #555;")
        strip = QHBoxLayout()
        for label, grab in (("First", pictures[0] if pictures else None),
                            ("Last", pictures[-1] if len(pictures) > 1 else None)):
            if grab is None:
                continue
            column = QVBoxLayout()
            picture = QLabel()
            picture.setPixmap(thumbnail(grab.image()))
            column.addWidget(picture)
            column.addWidget(QLabel(f"{label} picture"))
            strip.addLayout(column)
        self.note_edit = QLineEdit()
        self.note_edit.setPlaceholderText("What went wrong? (optional, one sentence)")
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        change = QPushButton("Change folder…")
        change.clicked.connect(self._choose_folder)
        place = QHBoxLayout()
        place.addWidget(self.where, 1)
        place.addWidget(change)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addLayout(strip)
        layout.addWidget(private)
        layout.addWidget(self.note_edit)
        layout.addLayout(place)
        layout.addWidget(self.buttons)
        self._show_destination()

    def _show_destination(self) -> None:
        self.where.setText(f"Saved as: {self._destination}")

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Save the report in",
                                                  str(self._destination.parent))
        if folder:
            self._destination = Path(folder) / self._destination.name
            self._show_destination()

    def note(self) -> str:
        return self.note_edit.text().strip()

    def destination(self) -> Path:
        return self._destination


class ReportWriter(QThread):
    """Writes one report off the GUI thread; ``finished_saving(path, error)``: the path
    saved, or None and the sentence why not."""

    finished_saving = pyqtSignal(object, object)

    def __init__(self, snapshot: Snapshot, destination: Path, note: str, about: dict,
                 parent=None) -> None:
        super().__init__(parent)
        self.snapshot, self.destination, self.note, self.about = (
            snapshot, destination, note, about)

    def run(self) -> None:
        try:
            path = save_report(self.snapshot, self.destination, note=self.note,
                               about=self.about)
        except ReportSaveError as error:
            self.finished_saving.emit(None, str(error))
        else:
            self.finished_saving.emit(path, None)
