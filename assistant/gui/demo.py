"""The demo room: a stand-in for the game, drawn by the same renderer as the test
fixtures, where clicking a plate steps on it. With the live assistant pointed at it,
the whole loop (reading, overlay, live updates) can be tried without the game.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PyQt6.QtCore import QPointF, Qt, pyqtSignal
from PyQt6.QtGui import QImage, QPainter
from PyQt6.QtWidgets import QWidget

from assistant.puzzle import TOA_PLATES, toa_board
from assistant.scene import Scene, SceneParams, render_scene
from assistant.solver import random_solvable_board

__all__ = ["DEMO_TITLE", "DemoRoom", "demo_params"]

DEMO_TITLE = "ToA Light Assistant demo room"


def demo_params(board: str | None = None, seed: int = 7) -> SceneParams:
    """The demo's scene: a room in a game-like frame, a solvable random board by default."""
    if board is None:
        board = random_solvable_board(
            3, 3, present=toa_board("000/0#0/000").present, seed=seed
        ).format()
    return SceneParams(
        seed=seed,
        board=board,
        frame_size=(900, 620),
        centre=(360, 250),
        spacing=72.0,
        rotation_deg=4.0,
        colour_jitter=0.0,
    )


class DemoRoom(QWidget):
    """Shows the rendered room at one image pixel per logical pixel; a click on a plate
    steps on it (the plate and its two ring neighbours toggle)."""

    stepped = pyqtSignal(str)  # the room's board after a step

    def __init__(
        self,
        params: SceneParams | None = None,
        title: str = DEMO_TITLE,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.params = params or demo_params()
        self.scene: Scene = render_scene(self.params)
        self._image = _to_qimage(self.scene.frame)
        width, height = self.params.frame_size
        self.setFixedSize(width, height)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    @property
    def board(self) -> str:
        return self.scene.board

    def set_board(self, board: str) -> None:
        self.params = replace(self.params, board=board)
        self.scene = render_scene(self.params)
        self._image = _to_qimage(self.scene.frame)
        self.update()

    def step(self, plate: int) -> None:
        """Step on plate ``plate`` (TOA_PLATES order, as laid out in the room)."""
        row, col = TOA_PLATES[plate]
        self.set_board(toa_board(self.board).press(row, col).format())
        self.stepped.emit(self.board)

    def plate_at(self, point: QPointF) -> int | None:
        """The plate under a point of the widget, or None."""
        distances = np.linalg.norm(self.scene.plate_centres - (point.x(), point.y()), axis=1)
        nearest = int(np.argmin(distances))
        return nearest if distances[nearest] <= 0.35 * self.params.spacing else None

    def mousePressEvent(self, event) -> None:
        plate = self.plate_at(event.position())
        if plate is not None and event.button() == Qt.MouseButton.LeftButton:
            self.step(plate)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawImage(0, 0, self._image)
        painter.end()


def _to_qimage(frame: np.ndarray) -> QImage:
    rgb = np.ascontiguousarray(frame[..., 2::-1])
    height, width = rgb.shape[:2]
    return QImage(rgb.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()
