"""The control window's widgets and their layout: the game-window box, the status lines
and the buttons, each wired to the window's slot.

Kept apart from :mod:`assistant.gui.app` so the window's behaviour (the live loop, where
windows go, the doors to the other windows) reads without the widget boilerplate. Mixed
into :class:`assistant.gui.app.ControlWindow`, which provides the slots named here.
"""

from __future__ import annotations

from PyQt6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

__all__ = ["ControlWidgets"]


class ControlWidgets:
    """Builds the control window's widgets (``_build_widgets``) and lays them out
    (``_lay_out_widgets``); the widgets are attributes of the window."""

    target: QComboBox
    refresh_button: QPushButton
    status: QLabel
    notice: QLabel
    profile_label: QLabel
    start_button: QPushButton
    calibrate_button: QPushButton
    load_button: QPushButton
    manual_button: QPushButton
    settings_button: QPushButton
    demo_button: QPushButton
    report_button: QPushButton
    panel_toggle: QCheckBox

    def _build_widgets(self, notice: str | None) -> None:
        """The game-window box and the lines of text, then the buttons."""
        self.target = QComboBox()
        self.target.setEditable(True)
        self.target.setMinimumWidth(300)
        self.target.setToolTip(self._target_tip())
        self.refresh_windows()
        self.target.setCurrentText(self._default_target_text())
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("List the open windows again")
        self.refresh_button.clicked.connect(self.refresh_windows)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-size: 15px; padding: 4px 0;")
        self.notice = QLabel(notice or "")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #8a4b00;")
        self.notice.setVisible(bool(notice))
        self.profile_label = QLabel("Plates: found automatically (no calibration needed).")
        self.profile_label.setStyleSheet("color: #555;")
        self._build_buttons()

    def _build_buttons(self) -> None:
        """The buttons and the steps panel option, each connected to its slot."""
        self.start_button = QPushButton("Start overlay")
        self.start_button.setToolTip("Read the game window and mark the plates to step on")
        self.start_button.clicked.connect(self.toggle_overlay)
        self.calibrate_button = QPushButton("Calibrate…")
        self.calibrate_button.setToolTip(
            "Show the assistant where the plates are on a still picture of the game"
        )
        self.calibrate_button.clicked.connect(self.open_calibration)
        self.load_button = QPushButton("Load profile…")
        self.load_button.setToolTip("Use a calibration saved before")
        self.load_button.clicked.connect(self.load_profile_dialog)
        self.manual_button = QPushButton("Manual entry…")
        self.manual_button.setToolTip("Click the plates in yourself and get the steps")
        self.manual_button.clicked.connect(self.open_manual)
        self.settings_button = QPushButton("Settings…")
        self.settings_button.clicked.connect(self.open_settings)
        self.demo_button = QPushButton("Try the demo room")
        self.demo_button.setToolTip(
            "A stand-in puzzle room with a new puzzle each time: click the floor to walk "
            "there (plates you walk onto are stepped on), turn and zoom the camera with "
            "the keys shown in it, and watch the assistant mark the plates."
        )
        self.demo_button.clicked.connect(self.open_demo)
        self.report_button = QPushButton("Save report…")
        self.report_button.clicked.connect(self.open_report_dialog)
        self.panel_toggle = QCheckBox("Steps panel")
        self.panel_toggle.setToolTip(
            "A small window beside the game with the board and the steps left."
        )
        self.panel_toggle.setChecked(self.settings.show_steps_panel)
        self.panel_toggle.toggled.connect(self.set_steps_panel)

    def _lay_out_widgets(self) -> None:
        """The game-window row, the status, the main buttons, then the extras row."""
        top = QHBoxLayout()
        top.addWidget(QLabel("Game window:"))
        top.addWidget(self.target, 1)
        top.addWidget(self.refresh_button)
        buttons = QHBoxLayout()
        for button in (
            self.start_button,
            self.calibrate_button,
            self.load_button,
            self.manual_button,
            self.settings_button,
        ):
            buttons.addWidget(button)
        layout = QVBoxLayout()
        layout.addWidget(self.notice)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.profile_label)
        layout.addLayout(buttons)
        extras = QHBoxLayout()
        extras.addWidget(self.demo_button)
        extras.addWidget(self.report_button)
        extras.addStretch(1)
        extras.addWidget(self.panel_toggle)
        layout.addLayout(extras)
        body = QWidget()
        body.setLayout(layout)
        self.setCentralWidget(body)
