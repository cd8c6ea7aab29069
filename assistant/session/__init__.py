"""What a live session remembers between pictures, without Qt or a screen.

The live loop (:mod:`assistant.live`) finds the window, grabs a frame and hands it here
as a value (:class:`assistant.session.frames.Frame`: pixels, where they start, when they
were grabbed); the session reads it and keeps what the frames before told:

- :mod:`~assistant.session.tracker`: following the ring from frame to frame, and when to
  search the whole window for it again;
- :mod:`~assistant.session.camera`: how the camera moved between two views (the one
  module for camera motion);
- :mod:`~assistant.session.spot`: where on the window the camera keeps the player;
- :mod:`~assistant.session.history` and :mod:`~assistant.session.moves`: the boards the
  session may be showing, and what steps change;
- :mod:`~assistant.session.landmarks`: the statue's side and the room around the ring;
- :mod:`~assistant.session.session`: one step of the session, all of the above in order;
- :mod:`~assistant.session.marks` and :mod:`~assistant.session.sentences`: what the
  overlay paints and the sentences the player reads.
"""
