"""The ring search, as stages: where is the ToA ring in a picture, and is it sure?

- :mod:`~assistant.vision.ring.shape`: the ring (from :data:`assistant.puzzle.TOA_PLATES`),
  a fit of it, and the thresholds every stage shares;
- :mod:`~assistant.vision.ring.blobs`: gold blobs that could be diamonds;
- :mod:`~assistant.vision.ring.candidates` and :mod:`~assistant.vision.ring.refit`:
  placements of the ring through them, refitted past the blobs that are no diamonds;
- :mod:`~assistant.vision.ring.frames`: what the picture shows about a placement (purple
  frames, an even floor, a plate in the middle);
- :mod:`~assistant.vision.ring.search`: the fresh search and its decision;
- :mod:`~assistant.vision.ring.motions`, :mod:`~assistant.vision.ring.pitched` and
  :mod:`~assistant.vision.ring.follow`: placements from the last view, moved;
- :mod:`~assistant.vision.ring.checks`: checks on a ring already placed.

Each stage's thresholds are a frozen parameter dataclass in its module, each field with
what it was measured on. :mod:`assistant.vision.locate` is the public face.
"""
