"""The calibration window: on a frozen capture of the game window, click the centres of
the four corner cells (or press Auto-locate), choose the grid, for generic grids show one
lit and one unlit cell, check the projected grid and the reading, and save the profile.

All decisions are made by :mod:`assistant.calibrate`; this module only collects clicks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PyQt6 import sip
from PyQt6.QtCore import QPointF, QRectF, Qt, pyqtSignal
from PyQt6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF
from PyQt6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from assistant.calibrate import (
    CalibrationError,
    Draft,
    build_profile,
    parse_holes,
    sample_cell_colour,
)
from assistant.profile import GridSpec, Profile, save_profile

__all__ = ["CORNER_PROMPTS", "CalibrationWindow", "FrameView", "reading_text"]

CORNER_PROMPTS = (
    "Click the centre of the top-left cell.",
    "Click the centre of the top-right cell.",
    "Click the centre of the bottom-right cell.",
    "Click the centre of the bottom-left cell.",
)
_MAGNIFIER = 4  # zoom of the magnifier
_LENS = 120  # its size on screen


class FrameView(QWidget):
    """Shows the frozen frame scaled to fit, reports clicks in frame pixels, and draws the
    clicked corners, the projected grid and a magnifier under the cursor."""

    clicked = pyqtSignal(float, float)

    def __init__(self, frame: np.ndarray, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        rgb = np.ascontiguousarray(frame[..., 2::-1]) if frame.ndim == 3 else frame
        height, width = rgb.shape[:2]
        self.frame_size = (width, height)
        self._image = QImage(rgb.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()
        self.points: list[tuple[float, float]] = []
        self.grid_polygons: list[np.ndarray] = []
        self.cell_states: list[tuple[float, float, bool | None]] = []
        self._cursor: QPointF | None = None
        self.setMouseTracking(True)
        self.setMinimumSize(320, 220)  # fits beside the game on a small screen
        self.setCursor(Qt.CursorShape.CrossCursor)

    def _scale(self) -> tuple[float, float, float]:
        width, height = self.frame_size
        scale = min(self.width() / width, self.height() / height)
        return scale, (self.width() - width * scale) / 2, (self.height() - height * scale) / 2

    def to_frame(self, point: QPointF) -> tuple[float, float]:
        scale, ox, oy = self._scale()
        return (point.x() - ox) / scale, (point.y() - oy) / scale

    def to_widget(self, x: float, y: float) -> QPointF:
        scale, ox, oy = self._scale()
        return QPointF(ox + x * scale, oy + y * scale)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            x, y = self.to_frame(event.position())
            width, height = self.frame_size
            if 0 <= x < width and 0 <= y < height:
                self.clicked.emit(x, y)

    def mouseMoveEvent(self, event) -> None:
        self._cursor = event.position()
        self.update()

    def leaveEvent(self, event) -> None:
        self._cursor = None
        self.update()

    def paintEvent(self, event) -> None:
        if sip.isdeleted(self):
            # a paint queued before the calibration window was deleted: painting a dead
            # widget (QPainter on it, left open by the error) crashed the process
            return
        painter = QPainter(self)
        scale, ox, oy = self._scale()
        width, height = self.frame_size
        target = QRectF(ox, oy, width * scale, height * scale)
        painter.drawImage(target, self._image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(0, 229, 255), 1.5))
        for polygon in self.grid_polygons:
            painter.drawPolygon(QPolygonF([self.to_widget(x, y) for x, y in polygon]))
        for x, y, lit in self.cell_states:
            colour = (
                QColor(255, 214, 0)
                if lit
                else QColor(60, 60, 60)
                if lit is False
                else QColor(255, 0, 0)
            )
            painter.setBrush(colour)
            painter.drawEllipse(self.to_widget(x, y), 4, 4)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(255, 0, 255), 2))
        for number, (x, y) in enumerate(self.points, start=1):
            centre = self.to_widget(x, y)
            painter.drawLine(centre - QPointF(8, 0), centre + QPointF(8, 0))
            painter.drawLine(centre - QPointF(0, 8), centre + QPointF(0, 8))
            painter.drawText(centre + QPointF(6, -6), str(number))
        if self._cursor is not None:
            self._draw_magnifier(painter)
        painter.end()

    def _draw_magnifier(self, painter: QPainter) -> None:
        """A zoomed view of the frame around the cursor, in the widget's top-left corner."""
        x, y = self.to_frame(self._cursor)
        half = _LENS / (2 * _MAGNIFIER)
        source = QRectF(x - half, y - half, 2 * half, 2 * half)
        lens = QRectF(8, 8, _LENS, _LENS)
        painter.drawImage(lens, self._image, source)
        painter.setPen(QPen(QColor(255, 0, 255), 1))
        painter.drawRect(lens)
        painter.drawLine(QPointF(8 + _LENS / 2, 8), QPointF(8 + _LENS / 2, 8 + _LENS))
        painter.drawLine(QPointF(8, 8 + _LENS / 2), QPointF(8 + _LENS, 8 + _LENS / 2))


class CalibrationWindow(QDialog):
    """Make a profile from a frozen frame of the captured area."""

    saved = pyqtSignal(object, str)  # Profile, path

    def __init__(
        self,
        frame: np.ndarray,
        window_title: str,
        profiles_dir: Path,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Calibrate — ToA Light Assistant")
        self.frame = frame
        self.window_title = window_title
        self.profiles_dir = Path(profiles_dir)
        self.draft: Draft | None = None
        self._sampling: str | None = None  # "on" or "off" while waiting for a cell click
        self._on: tuple[int, int, int] | None = None
        self._off: tuple[int, int, int] | None = None

        self.view = FrameView(frame)
        self.view.clicked.connect(self._clicked)
        self.prompt = QLabel(CORNER_PROMPTS[0])
        self.prompt.setWordWrap(True)
        self.toa = QRadioButton("ToA light puzzle (8 plates)")
        self.generic = QRadioButton("Generic grid")
        self.toa.setChecked(True)
        kinds = QButtonGroup(self)
        kinds.addButton(self.toa)
        kinds.addButton(self.generic)
        self.toa.toggled.connect(self._grid_changed)
        self.rows = _spin(2, 100, 5)
        self.cols = _spin(2, 100, 5)
        self.holes = QLineEdit()
        self.holes.setPlaceholderText("row,col row,col (from 1), e.g. 2,2 3,1")
        self.objective = _spin(0, 1, 1)
        for widget in (self.rows, self.cols, self.objective):
            widget.valueChanged.connect(self._grid_changed)
        self.holes.editingFinished.connect(self._grid_changed)
        self.auto_button = QPushButton("Auto-locate")
        self.auto_button.clicked.connect(self.auto_locate)
        self.clear_button = QPushButton("Clear corners")
        self.clear_button.clicked.connect(self.clear)
        self.lit_button = QPushButton("Show a lit cell")
        # bound methods, not lambdas holding self: see ManualWindow._action
        self.lit_button.clicked.connect(self._sample_lit)
        self.unlit_button = QPushButton("Show an unlit cell")
        self.unlit_button.clicked.connect(self._sample_unlit)
        self.reading = QLabel("")
        self.reading.setWordWrap(True)
        self.save_button = QPushButton("Save profile…")
        self.save_button.clicked.connect(self.save_dialog)
        self.save_button.setEnabled(False)

        form = QFormLayout()
        form.addRow(self.toa)
        form.addRow(self.generic)
        form.addRow("Rows:", self.rows)
        form.addRow("Columns:", self.cols)
        form.addRow("Holes:", self.holes)
        form.addRow("Goal state:", self.objective)
        side = QVBoxLayout()
        side.addWidget(self.prompt)
        side.addLayout(form)
        for button in (self.auto_button, self.clear_button, self.lit_button, self.unlit_button):
            side.addWidget(button)
        side.addWidget(self.reading)
        side.addStretch(1)
        side.addWidget(self.save_button)
        layout = QHBoxLayout(self)
        layout.addWidget(self.view, 1)
        panel = QWidget()
        panel.setLayout(side)
        panel.setFixedWidth(280)
        layout.addWidget(panel)
        self._grid_changed()

    # -- state ---------------------------------------------------------------------------
    def grid(self) -> GridSpec | None:
        """The chosen grid (None = ToA); raises CalibrationError for bad holes."""
        objective = self.objective.value()
        if self.toa.isChecked():
            return None if objective == 1 else GridSpec(3, 3, ((1, 1),), 2, objective)
        rows, cols = self.rows.value(), self.cols.value()
        return GridSpec(rows, cols, parse_holes(self.holes.text(), rows, cols), 2, objective)

    def _grid_changed(self) -> None:
        generic = self.generic.isChecked()
        for widget in (self.rows, self.cols, self.holes, self.lit_button, self.unlit_button):
            widget.setEnabled(generic)
        self.auto_button.setEnabled(not generic)
        self._update()

    def clear(self) -> None:
        self.view.points = []
        self.draft = None
        self._update()

    def auto_locate(self) -> None:
        try:
            self.draft = build_profile(
                self.frame, corners=None, grid=self.grid(), window_title=self.window_title
            )
        except CalibrationError as error:
            self.reading.setText(str(error))
            return
        self.view.points = list(self.draft.profile.corners)
        self._update()

    def click(self, x: float, y: float) -> None:
        """A click at frame pixel (x, y): the next corner, or the cell being sampled."""
        self._clicked(x, y)

    def _clicked(self, x: float, y: float) -> None:
        if self._sampling and self.draft is not None:
            self._sample(x, y)
            return
        if len(self.view.points) >= 4:
            self.view.points = []
        self.view.points.append((x, y))
        self._update()

    def _sample_lit(self) -> None:
        self._start_sampling("on")

    def _sample_unlit(self) -> None:
        self._start_sampling("off")

    def _start_sampling(self, which: str) -> None:
        if self.draft is None:
            self.reading.setText("Place the four corners first.")
            return
        self._sampling = which
        self.prompt.setText(f"Click a cell that is {'lit' if which == 'on' else 'unlit'}.")

    def _sample(self, x: float, y: float) -> None:
        geometry = self.draft.geometry
        grid_point = _nearest_cell(geometry, x, y)
        if grid_point is None:
            self.reading.setText("That is not on a cell of the grid: click inside one.")
            return
        colour = sample_cell_colour(self.frame, geometry, *grid_point)
        if self._sampling == "on":
            self._on = colour
        else:
            self._off = colour
        self._sampling = None
        self._update()

    def _update(self) -> None:
        points = self.view.points
        self.view.grid_polygons = []
        self.view.cell_states = []
        if len(points) < 4:
            self.draft = None
            self.prompt.setText(CORNER_PROMPTS[len(points)])
            self.save_button.setEnabled(False)
            self.reading.setText("")
            self.view.update()
            return
        try:
            both = self._on is not None and self._off is not None
            self.draft = build_profile(
                self.frame,
                corners=tuple(points),
                grid=self.grid(),
                on=self._on if both else None,
                off=self._off if both else None,
                window_title=self.window_title,
            )
        except CalibrationError as error:
            self.draft = None
            self.reading.setText(str(error))
            self.save_button.setEnabled(False)
            self.view.update()
            return
        grid = self.draft.profile.grid
        geometry = self.draft.geometry
        self.view.grid_polygons = [geometry.circle(r, c, 0.4) for r, c in grid.cells]
        lit = {(t.row, t.col): t.lit for t in self.draft.reading.tiles}
        self.view.cell_states = [
            (*geometry.cell_centre(r, c), lit.get((r, c))) for r, c in grid.cells
        ]
        text = reading_text(self.draft.reading)
        if self._on is not None or self._off is not None:
            text += f" Lit looks {_hex(self._on)}, unlit looks {_hex(self._off)}."
        self.reading.setText(text)
        self.prompt.setText("Check the grid and the reading, then save.")
        self.save_button.setEnabled(True)
        self.view.update()

    # -- saving ----------------------------------------------------------------------------
    def save_to(self, path: str | Path) -> Profile:
        if self.draft is None:
            raise CalibrationError("Place the four corners (or auto-locate) before saving.")
        profile = self.draft.profile
        written = save_profile(profile, path)
        self.saved.emit(profile, str(written))
        return profile

    def save_dialog(self) -> None:
        self.profiles_dir.mkdir(parents=True, exist_ok=True)
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save calibration profile",
            str(self.profiles_dir / "profile.json"),
            "Profiles (*.json)",
        )
        if path:
            try:
                self.save_to(path)
            except CalibrationError as error:
                self.reading.setText(str(error))
                return
            except OSError as error:
                why = error.strerror or "the system refused"
                self.reading.setText(f"Could not save the profile as {path}: {why}.")
                return
            self.accept()


def _spin(low: int, high: int, value: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    return spin


def _hex(colour: tuple[int, int, int] | None) -> str:
    return "not shown yet" if colour is None else "#{:02X}{:02X}{:02X}".format(*colour)


def reading_text(reading) -> str:
    """What the calibration window says of a reading, in words: never ``None`` or a
    raw field (a reading with a plate someone stands on has no board and no reason)."""
    if reading.board is not None:
        return f"Reads {reading.board.format()}."
    if reading.note:
        return (f"Reads {reading.board_text}. {reading.note} The grid is placed, so the "
                "profile can be saved; the assistant reads that plate once it shows.")
    if reading.reason:
        return f"Cannot read it yet: {reading.reason}"
    return ("Cannot read the plates yet: check that the four corners sit on the centres of "
            "the corner cells.")


def _nearest_cell(geometry, x: float, y: float) -> tuple[int, int] | None:
    """The cell (row, col) whose centre is within half a spacing of (x, y)."""
    best, best_distance = None, None
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            cx, cy = geometry.cell_centre(r, c)
            distance = float(np.hypot(cx - x, cy - y)) / geometry.local_spacing(r, c)
            if distance <= 0.5 and (best_distance is None or distance < best_distance):
                best, best_distance = (r, c), distance
    return best
