"""The manual-entry window: the ToA fallback, a Lights Out workbench and a Light Up page.

The player types (clicks) the plates when the screen cannot be read, or opens it from a
live reading to correct a misread plate; anyone can use it to solve any grid up to
100x100 with holes, k states and any objective.

The window is thin: every click, key and button calls one method of
:class:`~assistant.gui.manual_model.ManualModel` and repaints from it. The engine runs
on a worker thread (one solve at a time; while it runs, further edits only mark the
board as wanted, and the newest board is solved next), so editing never waits for it.

Keys (also shown in the window, F1 toggles the list): arrows move the cursor;
Space/Enter click (+1 / press); Backspace/- (-1 / take a press back); H hole at the
cursor; E edit, P play, T hole tool; S solve; N hint; R randomize; Esc or Ctrl+R reset;
C clear; Ctrl+Z/Ctrl+Y undo/redo; Ctrl+C/Ctrl+V copy/paste the board as text;
Ctrl+W close. These keys work while the focus is on the Lights Out page; the Light Up
page (:mod:`assistant.gui.lightup_view`) has its own.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from dataclasses import dataclass

from PyQt6.QtCore import QObject, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PyQt6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from assistant.errors import UserError
from assistant.gui.grid_view import (
    ANSWER_HIDDEN,
    ANSWER_PRESSES,
    ANSWER_UNSOLVABLE,
    GridScroll,
    GridView,
    fit_to_screen,
    grow_to_show,
)
from assistant.gui.lightup_view import LightUpPage
from assistant.gui.manual_model import ManualModel, Mode, solution_summary, solve_with_engine
from assistant.puzzle import Board
from assistant.settings import (
    ENGINES,
    MAX_GRID_STATES,
    Settings,
    load_settings,
    save_settings,
    settings_path,
)
from assistant.solver import Solution

__all__ = ["KEYS_HELP", "ManualWindow"]

WINDOW_TITLE = "ToA Light Assistant — manual entry"
PRESET_TOA = "toa"
PRESET_CUSTOM = "custom"

#: What the window says when the engine itself fails (a bug): a sentence, not the
#: exception's text; the traceback goes to the terminal for a bug report.
ENGINE_FAILED = ("The engine failed on this board (a bug: the details were printed where "
                 "the assistant was started). Try another board or the other engine.")

#: The keyboard list shown under the grids (F1 hides and shows it).
KEYS_HELP = (
    "Arrows: move · Space/Enter: +1 or press · Backspace/−: −1 or take back · "
    "H: hole here · E/P/T: edit / play / hole tool · S: solve · N: hint · "
    "R: randomize · Esc, Ctrl+R: reset · C: clear · Ctrl+Z/Y: undo/redo · "
    "Ctrl+C/V: copy/paste board · F1: hide this"
)


@dataclass(frozen=True)
class _Answer:
    board: Board
    solution: Solution | None
    note: str | None
    error: str | None


class _Relay(QObject):
    """Carries a finished solve from the worker thread to the window's thread.

    It has no Qt parent: the window and every running worker hold it, so a window
    deleted while a solve runs never leaves the worker emitting on a deleted object (a
    crash when the deletion and the emit meet); the window's slot, a bound method, is
    simply not called once the window is gone."""

    finished = pyqtSignal(object)


class ManualWindow(QMainWindow):
    """The manual-entry window.

    Parameters
    ----------
    board : a board to open with (e.g. a live reading to correct); its answer is shown
        at once and the last-grid setting is left alone. None opens the last grid used
        (or the default grid) from the settings.
    settings : the settings to use; None reads them from the settings file.
    parent : Qt parent.
    settings_file : where the last grid is remembered (None = the user's settings file).
    remember : write the grid on close; default: only when opened without a board.
    show_answer : show the presses at once; default: only when opened with a board.
    notice : a sentence to show at the top of the messages (e.g. a settings warning the
        caller already got from :func:`~assistant.settings.load_settings`).

    Signals
    -------
    boardChanged(Board) : after every change of the board (e.g. a corrected plate).
    solved(Solution) : an answer for the board on screen arrived.
    """

    boardChanged = pyqtSignal(object)
    solved = pyqtSignal(object)

    def __init__(
        self,
        board: Board | None = None,
        settings: Settings | None = None,
        parent: QWidget | None = None,
        *,
        settings_file: str | os.PathLike[str] | None = None,
        remember: bool | None = None,
        show_answer: bool | None = None,
        notice: str | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings_file = settings_path(settings_file)
        self._startup_warning = notice
        if settings is None:
            settings, self._startup_warning = load_settings(self._settings_file)
        self.settings = settings
        self._remember = board is None if remember is None else remember
        if board is not None:
            self.model = ManualModel.from_reading(board)
        else:
            self.model = ManualModel.from_grid(settings.manual_grid())
        if show_answer is not None:
            self.model.show_solution = show_answer
        self._engine = settings.engine
        self._busy = False
        self._engine_note: str | None = None
        self._error: str | None = None
        self._relay = _Relay()  # no parent: the worker keeps it alive, see _Relay
        self._relay.finished.connect(self._on_answer)
        self._syncing = False
        self._shape: tuple[int, int] | None = None  # the grid's shape last laid out
        self._grow = QTimer(self)  # after the layout took the new shape: room for it
        self._grow.setSingleShot(True)
        self._grow.setInterval(0)
        self._grow.timeout.connect(self._grow_to_show_the_grid)

        self.setWindowTitle(WINDOW_TITLE)
        self._build()
        self._build_actions()
        self._sync_controls()
        self._refresh()
        self._request_solve()
        self.board_view.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- construction ---------------------------------------------------------------------------
    def _build(self) -> None:
        central = QWidget()  # the Lights Out page
        self.lights_page = central
        outer = QVBoxLayout(central)
        outer.addLayout(self._build_grid_controls())
        self.tool_row = QHBoxLayout()
        outer.addLayout(self.tool_row)
        # cells never shrink below MIN_CELL: a big grid grows the window, then scrolls
        self.grid_scroll = GridScroll(self._build_grids())
        outer.addWidget(self.grid_scroll, 1)
        self._build_text_lines(outer)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(central, "Lights Out")
        self.lightup_page = LightUpPage()
        self.tabs.addTab(self.lightup_page, "Light Up")
        self.tabs.setTabToolTip(0, "The ToA room and any Lights Out grid")
        self.tabs.setTabToolTip(1, "Light Up (Akari): walls, numbers, lamps")
        self.tabs.currentChanged.connect(self._page_changed)
        self.setCentralWidget(self.tabs)

        self.board_view.cellClicked.connect(self._cell_clicked)
        self.board_view.cursorMoved.connect(self._cursor_moved)
        self.board_view.activated.connect(self._activated)
        if self._startup_warning:
            self._message(self._startup_warning)

    def _build_grid_controls(self) -> QHBoxLayout:
        """The row above the grids: preset, size, states, objective and engine."""
        controls = QHBoxLayout()
        self.preset_box = QComboBox()
        self.preset_box.addItem("ToA room (8 plates)", PRESET_TOA)
        self.preset_box.addItem("Custom grid", PRESET_CUSTOM)
        self.preset_box.setToolTip("The Tombs of Amascut room, or a grid of your own")
        self.preset_box.activated.connect(self._preset_chosen)
        controls.addWidget(self.preset_box)
        self.rows_box = self._spin("Rows", 1, 999, "Rows (1 to 100)", controls)
        self.cols_box = self._spin("Cols", 1, 999, "Columns (1 to 100)", controls)
        self.states_box = self._spin(
            "States", 2, 99, f"Number of states k (2 to {MAX_GRID_STATES})", controls
        )
        self.objective_box = self._spin(
            "Objective", 0, 98, "The state every cell must reach (k−1 = all lit)", controls
        )
        controls.addWidget(QLabel("Engine"))
        self.engine_box = QComboBox()
        for name in ENGINES:
            self.engine_box.addItem(name, name)
        self.engine_box.setToolTip("internal: exact, built in · clingo: optional ASP engine")
        self.engine_box.setCurrentIndex(max(0, self.engine_box.findData(self._engine)))
        self.engine_box.activated.connect(self._engine_chosen)
        controls.addWidget(self.engine_box)
        controls.addStretch(1)
        return controls

    def _build_grids(self) -> QWidget:
        """The board the player clicks and the presses beside it, with their titles."""
        grids = QGridLayout()
        self.board_title = QLabel("Board")
        self.answer_title = QLabel("Presses")
        self.board_view = GridView(interactive=True)
        self.board_view.setToolTip(
            "Left click +1 (play: press), right click −1 (play: take back); "
            "arrow keys and Space work too"
        )
        self.board_view.setAccessibleName("Board")
        self.answer_view = GridView(interactive=False)
        self.answer_view.setToolTip("How many times to press each cell (S shows it)")
        self.answer_view.setAccessibleName("Presses")
        grids.addWidget(self.board_title, 0, 0)
        grids.addWidget(self.answer_title, 0, 1)
        grids.addWidget(self.board_view, 1, 0)
        grids.addWidget(self.answer_view, 1, 1)
        grids.setColumnStretch(0, 1)
        grids.setColumnStretch(1, 1)
        grids.setRowStretch(1, 1)
        grids.setContentsMargins(0, 0, 0, 0)
        holder = QWidget()
        holder.setLayout(grids)
        return holder

    def _build_text_lines(self, outer: QVBoxLayout) -> None:
        """Under the grids: the answer, a message line and the keys."""
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label.setAccessibleName("Answer")
        self.status_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.status_label.setFixedHeight(3 * self.status_label.fontMetrics().lineSpacing() + 4)
        outer.addWidget(self.status_label)
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        # Room for three lines, kept whether a message shows or not: a long message must
        # not push the board about (it used to jump); longer ones show in full as a tooltip.
        lines = self.message_label.fontMetrics().lineSpacing()
        self.message_label.setFixedHeight(3 * lines + 4)
        outer.addWidget(self.message_label)
        self.keys_label = QLabel(KEYS_HELP)
        self.keys_label.setWordWrap(True)
        self.keys_label.setStyleSheet("color: #666;")
        outer.addWidget(self.keys_label)

    def _spin(self, label: str, low: int, high: int, tip: str, row: QHBoxLayout) -> QSpinBox:
        row.addWidget(QLabel(label))
        box = QSpinBox()
        box.setRange(low, high)
        box.setKeyboardTracking(False)  # act on Enter / focus out, not on every digit
        box.setToolTip(tip)
        box.setAccessibleName(label)
        box.valueChanged.connect(self._grid_changed)
        row.addWidget(box)
        return box

    def _action(
        self,
        text: str,
        slot,
        keys: list[QKeySequence | str | QKeySequence.StandardKey],
        tip: str,
        *,
        checkable: bool = False,
        button: bool = True,
        window: bool = False,
    ) -> QAction:
        """An action with its keys and, unless ``button`` is False, a tool button.

        ``slot`` is a bound method of the window, never a lambda or partial holding
        ``self``: PyQt keeps a bound method's object by a weak reference but a lambda by a
        strong one, and that cycle leaves the window to the garbage collector, which may
        delete it in the middle of painting it (a crash)."""
        action = QAction(text, self)
        sequences: list[QKeySequence] = []
        for key in keys:
            found = (
                QKeySequence.keyBindings(key)
                if isinstance(key, QKeySequence.StandardKey)
                else [QKeySequence(key)]
            )
            # a platform's standard keys may already hold an extra one (Ctrl+Y): a
            # sequence bound twice is an "ambiguous shortcut" and then does nothing
            sequences.extend(s for s in found if s not in sequences)
        action.setShortcuts(sequences)
        # Page keys work while the focus is on the Lights Out page (the Light Up page has
        # its own S, P, C...); window keys (close) everywhere.
        action.setShortcutContext(
            Qt.ShortcutContext.WindowShortcut
            if window
            else Qt.ShortcutContext.WidgetWithChildrenShortcut
        )
        shown = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences)
        action.setToolTip(f"{tip} ({shown})" if shown else tip)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        (self if window else self.lights_page).addAction(action)
        if button:
            tool = QToolButton()
            tool.setDefaultAction(action)
            tool.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self.tool_row.addWidget(tool)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.edit_action = a("Edit", self._edit_mode, ["E"],
                             "Edit: a click changes only that cell", checkable=True)
        self.play_action = a("Play", self._toggle_play, ["P"],
                             "Play: a click presses the cell as in the game", checkable=True)
        self.holes_action = a("Holes", self._toggle_hole_tool, ["T"],
                              "Hole tool: a click makes the cell a hole or brings it back",
                              checkable=True)
        self.solve_action = a("Solve", self._toggle_solution, ["S"],
                              "Show the presses that solve the board", checkable=True)
        self.hint_action = a("Hint", self._hint, ["N"], "Mark one press of the answer")
        self.random_action = a("Randomize", self._randomize, ["R"],
                               "A random board that can be solved")
        self.reset_action = a("Reset", self._reset, ["Esc", "Ctrl+R"],
                              "Back to the board as opened, randomized or when play began")
        self.clear_action = a("Clear", self._clear, ["C"], "Every cell to 0")
        self.undo_action = a("Undo", self._undo, [QKeySequence.StandardKey.Undo], "Undo")
        self.redo_action = a("Redo", self._redo, [QKeySequence.StandardKey.Redo, "Ctrl+Y"],
                             "Redo")
        self.tool_row.addStretch(1)
        self.hole_here_action = a("Hole here", self._hole_here, ["H"],
                                  "Make the cursor cell a hole or bring it back", button=False)
        self.copy_action = a("Copy board", self._copy, [QKeySequence.StandardKey.Copy],
                             "Copy the board as text", button=False)
        self.paste_action = a("Paste board", self._paste, [QKeySequence.StandardKey.Paste],
                              "Paste a board written as text, e.g. 111/0#0/110", button=False)
        self.keys_action = a("Keys", self._toggle_keys, ["F1"], "Show or hide the key list",
                             button=False)
        self.close_action = a("Close", self.close, [QKeySequence.StandardKey.Close, "Ctrl+W"],
                              "Close the window", button=False, window=True)

    # -- model -> widgets -----------------------------------------------------------------------
    def _sync_controls(self) -> None:
        """Controls show the model (signals blocked so this never loops back)."""
        m = self.model
        self._syncing = True
        try:
            self.preset_box.setCurrentIndex(
                self.preset_box.findData(PRESET_TOA if m.toa else PRESET_CUSTOM)
            )
            self.rows_box.setValue(m.board.rows)
            self.cols_box.setValue(m.board.cols)
            self.states_box.setValue(m.board.k)
            self.objective_box.setMaximum(m.board.k - 1)
            self.objective_box.setValue(m.board.objective)
        finally:
            self._syncing = False
        self.edit_action.setChecked(m.mode is Mode.EDIT)
        self.play_action.setChecked(m.mode is Mode.PLAY)
        self.holes_action.setChecked(m.mode is Mode.HOLES)
        self.solve_action.setChecked(m.show_solution)
        self.undo_action.setEnabled(m.can_undo())
        self.redo_action.setEnabled(m.can_redo())

    def _refresh(self) -> None:
        """Repaint both grids and the answer line from the model."""
        m = self.model
        b = m.board
        self.board_view.show_board(b.states, b.present, b.k, m.cursor, m.hint)
        if b.shape != self._shape:
            self._shape = b.shape
            self._grow.start()
        current = m.solution_current
        solution = m.solution if current else None
        if solution is not None and m.show_solution:
            if solution.solvable:
                self.answer_view.show_answer(solution.presses, b.present, b.k, ANSWER_PRESSES)
            else:
                self.answer_view.show_answer(None, b.present, b.k, ANSWER_UNSOLVABLE)
        else:
            self.answer_view.show_answer(None, b.present, b.k, ANSWER_HIDDEN)
        mode = {Mode.EDIT: "edit", Mode.PLAY: "play", Mode.HOLES: "hole tool"}[m.mode]
        self.board_title.setText(
            f"Board {b.rows}×{b.cols}, {b.k} states, goal {b.objective} — {mode}"
        )
        self.status_label.setText(self._status_text())
        self.status_label.setToolTip(self.status_label.text())
        self.undo_action.setEnabled(m.can_undo())
        self.redo_action.setEnabled(m.can_redo())

    def _status_text(self) -> str:
        m = self.model
        if self._error:
            return self._error
        if not m.solution_current:
            return "Solving…"
        assert m.solution is not None
        note = f" {self._engine_note}" if self._engine_note else ""
        if m.board.is_solved():
            return "Solved: every cell shows the objective." + note
        if not m.show_solution:
            if not m.solution.solvable:
                return "This board cannot be solved: press S to see why." + note
            return "Press S to see the answer, N for a hint." + note
        return solution_summary(m.solution) + note

    def _message(self, text: str, *, problem: bool = True) -> None:
        """A sentence for the user: a problem (a refused size, a bad paste, a settings
        warning) in red, or information (a hint) in the normal colour."""
        self.message_label.setStyleSheet("color: #b71c1c;" if problem else "")
        self.message_label.setText(text)
        self.message_label.setToolTip(text)

    def _changed(self) -> None:
        """After every change of the board: repaint, tell listeners, solve again."""
        self._error = None
        self._message("")
        self._sync_controls()
        self._refresh()
        self.boardChanged.emit(self.model.board)
        self._request_solve()

    def sizeHint(self):
        return fit_to_screen(super().sizeHint(), self)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._grow.start()

    def _grow_to_show_the_grid(self) -> None:
        grow_to_show(self, self.grid_scroll)

    # -- the engine on a worker thread ----------------------------------------------------------
    @property
    def solving(self) -> bool:
        """True while the engine works on some board."""
        return self._busy

    def _request_solve(self) -> None:
        if self._busy or self.model.solution_current:
            return  # the newest board is solved when the running solve returns
        self._busy = True
        board, engine, relay = self.model.board, self._engine, self._relay

        def work() -> None:
            try:
                solution, note = solve_with_engine(board, engine)
                answer = _Answer(board, solution, note, None)
            except UserError as error:
                answer = _Answer(board, None, None, str(error))
            except Exception:  # a bug: keep the traceback, keep the window
                traceback.print_exc()
                answer = _Answer(board, None, None, ENGINE_FAILED)
            relay.finished.emit(answer)  # alive while this thread holds it, window or not

        # A daemon thread: a long solve never keeps the program from closing.
        threading.Thread(target=work, name="manual-solve", daemon=True).start()

    def _on_answer(self, answer: _Answer) -> None:
        self._busy = False
        if answer.board == self.model.board:
            self._engine_note = answer.note
            self._error = answer.error
            if answer.solution is not None:
                self.model.accept(answer.solution)
            self._refresh()
            if answer.solution is not None:
                self.solved.emit(answer.solution)
        else:
            self._request_solve()

    # -- slots: grid ----------------------------------------------------------------------------
    def _cell_clicked(self, row: int, col: int, step: int) -> None:
        if self.model.click(row, col, step):
            self._changed()
        else:
            self._refresh()

    def _cursor_moved(self, d_row: int, d_col: int) -> None:
        self.model.move_cursor(d_row, d_col)
        self._refresh()

    def _activated(self, step: int) -> None:
        if self.model.activate(step):
            self._changed()

    def _hole_here(self) -> None:
        self.model.toggle_hole()
        self._changed()

    # -- slots: modes and actions ---------------------------------------------------------------
    def _edit_mode(self) -> None:
        self._set_mode(Mode.EDIT)

    def _set_mode(self, mode: Mode) -> None:
        self.model.set_mode(mode)
        self._sync_controls()
        self._refresh()

    def _toggle_play(self) -> None:
        self.model.toggle_play()
        self._sync_controls()
        self._refresh()

    def _toggle_hole_tool(self) -> None:
        self.model.toggle_hole_tool()
        self._sync_controls()
        self._refresh()

    def _toggle_solution(self) -> None:
        self.model.show_solution = not self.model.show_solution
        self._sync_controls()
        self._refresh()

    def _hint(self) -> None:
        if self.model.next_hint() is None:
            if not self.model.solution_current:
                self._message("The answer is not in yet: ask again in a moment.")
            elif self.model.board.is_solved():
                self._message("The board is already solved.", problem=False)
            else:
                self._message("This board cannot be solved, so there is no hint.")
        else:
            self._message(self.model.hint_sentence() or "", problem=False)
        self._refresh()

    def _randomize(self) -> None:
        self.model.randomize()
        self._changed()

    def _reset(self) -> None:
        if self.model.reset():
            self._changed()

    def _clear(self) -> None:
        self.model.clear()
        self._changed()

    def _undo(self) -> None:
        if self.model.undo():
            self._changed()

    def _redo(self) -> None:
        if self.model.redo():
            self._changed()

    def _page_changed(self, index: int) -> None:
        page = self.tabs.widget(index)
        if page is self.lightup_page:
            self.lightup_page.view.setFocus(Qt.FocusReason.TabFocusReason)
        else:
            self.board_view.setFocus(Qt.FocusReason.TabFocusReason)

    def _toggle_keys(self) -> None:
        self.keys_label.setVisible(not self.keys_label.isVisible())

    def _copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.model.board.format())

    def _paste(self) -> None:
        clipboard = QGuiApplication.clipboard()
        text = clipboard.text() if clipboard is not None else ""
        self.paste_text(text)

    def paste_text(self, text: str) -> bool:
        """Show a board written as text with the current states and objective; a bad
        text leaves the board alone and says why in one sentence."""
        b = self.model.board
        try:
            board = Board.parse(text, b.k, b.objective)
            self.model.set_board(board)
        except UserError as error:
            self._message(f"Could not paste a board: {error}")
            return False
        self._changed()
        return True

    # -- slots: grid settings -------------------------------------------------------------------
    def _preset_chosen(self, _index: int) -> None:
        if self.preset_box.currentData() == PRESET_TOA:
            if not self.model.toa:
                self.model.use_toa(self.settings.toa_objective)
                self._changed()
        elif self.model.toa:
            self.model.toa = False
            self._sync_controls()

    def _grid_changed(self, _value: int) -> None:
        if self._syncing:
            return
        rows, cols = self.rows_box.value(), self.cols_box.value()
        k = self.states_box.value()
        objective = self.objective_box.value()
        if k != self.model.board.k and objective == self.model.board.k - 1:
            objective = k - 1  # "all lit" stays "all lit" when k changes
        objective = min(objective, k - 1)
        try:
            self.model.new_grid(rows, cols, k, objective)
        except UserError as error:
            self._sync_controls()  # put the boxes back to the board on screen
            self._message(str(error))
            return
        self._changed()

    def _engine_chosen(self, _index: int) -> None:
        engine = self.engine_box.currentData()
        if engine != self._engine:
            self._engine = engine
            self.model.solution = None  # ask the newly chosen engine
            self._refresh()
            self._request_solve()

    # -- public helpers -------------------------------------------------------------------------
    def set_grid(self, rows: int, cols: int, k: int, objective: int) -> None:
        """Make a new grid (as the spin boxes do); refuses too large ones with a sentence."""
        self.model.new_grid(rows, cols, k, objective)
        self._changed()

    def load_board(self, board: Board) -> None:
        """Show a board (e.g. a new live reading); it becomes the Reset point."""
        self.model.set_board(board)
        self._changed()

    # -- closing --------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._remember:
            self._remember_grid()
        super().closeEvent(event)

    def _remember_grid(self) -> None:
        """Store the grid on screen as the last one, keeping every other setting as it is
        in the file now (another window may have changed them)."""
        current, _warning = load_settings(self._settings_file)
        try:
            save_settings(
                current.with_changes(manual_last=self.model.grid_settings()), self._settings_file
            )
        except OSError as error:
            print(
                f"toa-assistant: could not remember the grid in {self._settings_file} "
                f"({error.strerror or error}).",
                file=sys.stderr,
            )
