"""The settings dialog: every field of :class:`assistant.settings.Settings`, checked by
the Settings class itself so the dialog and the file agree on what is valid."""

from __future__ import annotations

from PyQt6.QtGui import QColor
from PyQt6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from assistant.settings import GridSettings, Settings, SettingsError

__all__ = ["SettingsDialog", "colour_to_hex"]


def colour_to_hex(colour: QColor) -> str:
    """``#RRGGBBAA``, alpha last, as the settings file keeps it."""
    return f"#{colour.red():02X}{colour.green():02X}{colour.blue():02X}{colour.alpha():02X}"


class SettingsDialog(QDialog):
    """Edit a copy of the settings; :meth:`result_settings` gives the checked result."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("ToA Light Assistant settings")
        self._settings = settings
        self._result: Settings | None = None
        form = QFormLayout()
        self.title = QLineEdit(settings.window_title)
        self.title.setToolTip("A regular expression matched against window titles.")
        form.addRow("Game window title:", self.title)
        self.fps = QSpinBox()
        self.fps.setRange(1, 60)
        self.fps.setValue(settings.fps)
        self.fps.setSuffix(" frames per second")
        form.addRow("Capture rate:", self.fps)
        self.colour_button = QPushButton()
        self.colour_button.clicked.connect(self._pick_colour)
        self._colour = settings.mark_color
        self._show_colour()
        form.addRow("Mark colour:", self.colour_button)
        self.objective = QComboBox()
        self.objective.addItem("All plates lit (the game's goal)", 1)
        self.objective.addItem("All plates dark", 0)
        self.objective.setCurrentIndex(0 if settings.toa_objective == 1 else 1)
        form.addRow("ToA goal:", self.objective)
        self.show_route = QCheckBox("Show the walking route on the overlay")
        self.show_route.setChecked(settings.show_route)
        self.crossing_steps = QCheckBox("Walking across a plate steps on it")
        self.crossing_steps.setToolTip(
            "On: the route never walks across a plate it should not step on. Switch it off "
            "if crossing a plate does not step on it in your game."
        )
        self.crossing_steps.setChecked(settings.crossing_steps)
        self.show_steps_panel = QCheckBox("Show the steps panel (also when the overlay works)")
        self.show_steps_panel.setChecked(settings.show_steps_panel)
        form.addRow("Route:", self.show_route)
        form.addRow("", self.crossing_steps)
        form.addRow("Steps panel:", self.show_steps_panel)
        grid = settings.manual_default
        self.rows = self._spin(1, 100, grid.rows)
        self.cols = self._spin(1, 100, grid.cols)
        self.states = self._spin(2, 36, grid.states)
        self.grid_objective = self._spin(0, 35, grid.objective)
        form.addRow("Manual grid rows:", self.rows)
        form.addRow("Manual grid columns:", self.cols)
        form.addRow("Manual grid states:", self.states)
        form.addRow("Manual grid goal state:", self.grid_objective)
        self.engine = QComboBox()
        self.engine.addItem("Internal (exact, fast)", "internal")
        self.engine.addItem("clingo (optional extra)", "clingo")
        self.engine.setCurrentIndex(0 if settings.engine == "internal" else 1)
        form.addRow("Engine:", self.engine)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b00020")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    @staticmethod
    def _spin(low: int, high: int, value: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setValue(value)
        return spin

    def _show_colour(self) -> None:
        self.colour_button.setText(self._colour)
        rgb = self._colour[:7]
        self.colour_button.setStyleSheet(f"background-color: {rgb};")

    def _pick_colour(self) -> None:
        current = QColor(self._colour[:7])
        if len(self._colour) == 9:
            current.setAlpha(int(self._colour[7:9], 16))
        chosen = QColorDialog.getColor(
            current, self, "Mark colour", QColorDialog.ColorDialogOption.ShowAlphaChannel
        )
        if chosen.isValid():
            self.set_colour(colour_to_hex(chosen))

    def set_colour(self, text: str) -> None:
        self._colour = text
        self._show_colour()

    def candidate(self) -> Settings:
        """The settings as edited; raises SettingsError with a sentence when invalid."""
        grid = GridSettings(
            self.rows.value(), self.cols.value(), self.states.value(), self.grid_objective.value()
        )
        return self._settings.with_changes(
            window_title=self.title.text().strip(),
            fps=self.fps.value(),
            mark_color=self._colour,
            toa_objective=int(self.objective.currentData()),
            engine=str(self.engine.currentData()),
            manual_default=grid,
            show_route=self.show_route.isChecked(),
            crossing_steps=self.crossing_steps.isChecked(),
            show_steps_panel=self.show_steps_panel.isChecked(),
        )

    def accept(self) -> None:
        try:
            self._result = self.candidate()
        except SettingsError as error:
            self.error.setText(str(error))
            return
        super().accept()

    def result_settings(self) -> Settings | None:
        """The accepted settings, or None when cancelled."""
        return self._result
