"""The reader's grabs with the assistant's own windows painted over (assistant.masking),
and the rectangles the GUI gives it (assistant.gui.own_windows, offscreen)."""

from __future__ import annotations

import numpy as np

from assistant.capture import Rect
from assistant.masking import MASK_BGRA, MaskingGrabber, mask_frame


def grab_of(rect: Rect) -> np.ndarray:
    frame = np.full((rect.height, rect.width, 4), 7, np.uint8)
    frame.setflags(write=False)  # as an mss grab's buffer
    return frame


def test_only_the_part_under_a_window_is_painted_over() -> None:
    area = Rect(100, 50, 40, 30)
    frame = grab_of(area)
    assert mask_frame(frame, area, [Rect(0, 0, 50, 50), Rect(200, 0, 10, 10)]) is frame
    masked = mask_frame(frame, area, [Rect(130, 70, 100, 100), Rect(90, 40, 15, 15)])
    assert masked is not frame and frame[0, 0, 0] == 7  # the grab itself is left alone
    assert (masked[20:, 30:] == MASK_BGRA).all()  # the window from (130, 70) on
    assert (masked[:5, :5] == MASK_BGRA).all()  # the one over the top-left corner
    painted = np.all(masked == MASK_BGRA, axis=-1)
    assert painted.sum() == 10 * 10 + 5 * 5


def test_the_masking_grabber_masks_every_grab_and_passes_the_rest_on() -> None:
    class Screen:
        closed = False

        def grab(self, rect):
            return grab_of(rect)

        def desktop(self):
            return Rect(0, 0, 1600, 1000)

        def close(self):
            Screen.closed = True

    windows = [Rect(0, 0, 10, 10)]
    with MaskingGrabber(Screen(), lambda: windows) as grabber:
        assert grabber.desktop() == Rect(0, 0, 1600, 1000)
        assert (grabber.grab(Rect(5, 5, 10, 10))[:5, :5] == MASK_BGRA).all()
        windows.clear()  # asked on every grab: a window closed is no longer masked
        assert (grabber.grab(Rect(5, 5, 10, 10)) == 7).all()
    assert Screen.closed


def test_own_windows_are_all_but_the_overlay_and_the_window_read(qtbot) -> None:
    from assistant.gui.demo import DemoRoom, demo_params
    from assistant.gui.overlay import Overlay
    from assistant.gui.own_windows import OwnWindowMask, physical_rect
    from assistant.gui.steps_panel import StepsPanel

    panel, overlay = StepsPanel(), Overlay()
    room = DemoRoom(demo_params("111/0#0/110"), title="Stand-in", classic=True)
    for widget in (panel, overlay, room):
        qtbot.addWidget(widget)
        widget.show()
    overlay.setGeometry(0, 0, 300, 300)
    own = OwnWindowMask("^Stand-in$")
    assert own.rects() == ()  # nothing until refreshed (in the GUI thread)
    assert own.refresh() == (physical_rect(panel),)
    # reading another window: the room is one of the assistant's windows like the panel
    assert set(OwnWindowMask("^Elsewhere$").refresh()) == {physical_rect(panel),
                                                           physical_rect(room)}
    panel.hide()
    assert own.refresh() == ()
