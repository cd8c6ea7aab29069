"""The installed package keeps its structure rules (ADR 84): module and function sizes,
import layers without an upward arrow, no lab in the product, Qt only in the shell."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _checker():
    spec = importlib.util.spec_from_file_location("check_structure",
                                                  ROOT / "scripts" / "check_structure.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_structure", module)
    spec.loader.exec_module(module)
    return module


def test_the_package_keeps_its_structure_rules():
    assert _checker().breaches() == []


def test_the_checker_reports_each_kind_of_breach(tmp_path):
    """Each rule can fail: a package with one breach of each kind is reported line by line."""
    package = tmp_path / "assistant"
    (package / "vision").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "vision" / "__init__.py").write_text("")
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    (package / "puzzle.py").write_text(
        "import PyQt6.QtCore\n"
        "from lab.scene import render_scene\n"
        f"def long():\n{body}\n"
        "def late():\n    from assistant.vision import reader\n")
    (package / "vision" / "reader.py").write_text("x = 1\n" * 701)
    found = "\n".join(_checker().breaches(package))
    assert "puzzle.py:1: imports PyQt6 outside assistant/gui" in found
    assert "puzzle.py:2: the product imports the lab (lab.scene)" in found
    assert "long is 82 lines" in found
    assert "assistant.puzzle (layer 0) imports assistant.vision.reader (layer 2) above it" \
        in found
    assert "reader.py: 701 lines" in found
    clean = tmp_path / "clean" / "assistant"
    clean.mkdir(parents=True)
    (clean / "puzzle.py").write_text("def short():\n    return 1\n")
    assert _checker().breaches(clean) == []
