"""The demo room's drawing: the puzzle room with its game camera and standing figures.

``toa-assistant demo`` shows this room as a stand-in for the game (assistant/gui/demo.py);
the lab's synthetic rooms and walk-throughs (``lab/``, in the repository only) draw on top
of it. Pure numpy/OpenCV, no Qt.
"""

from assistant.demo_room.camera import Camera
from assistant.demo_room.figures import Figure, draw_figures, random_figure
from assistant.demo_room.room import Room, RoomParams, draw_room, render_room

__all__ = [
    "Camera",
    "Figure",
    "Room",
    "RoomParams",
    "draw_figures",
    "draw_room",
    "random_figure",
    "render_room",
]
