"""The structure rules of the installed package, checked from its source.

- no module over 700 lines and no function over 80 (a reader can hold either in mind);
- the import graph has no upward arrow: every module sits in a layer (below), and a module
  imports only from its own layer or the ones under it, at module level or inside a function;
- the product imports nothing of the lab (``lab/``: the synthetic rooms, benchmark judges,
  soak), which is neither installed nor bundled;
- only the Qt shell (``assistant/gui``) imports PyQt6.

    python scripts/check_structure.py        # prints each breach; exit 1 if any
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "assistant"
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80

#: layers from the bottom; a module's layer is that of the longest prefix listed
LAYERS: tuple[tuple[str, ...], ...] = (
    # the puzzle and its exact solvers, and things every layer may use
    ("assistant.errors", "assistant.limits", "assistant.storage", "assistant.puzzle",
     "assistant.solver", "assistant.lightup", "assistant.analysis"),
    # the screen and the player's set-up: windows and grabs, where things are on screen,
    # calibration, settings and keys
    ("assistant.capture", "assistant.hotkey", "assistant.vision.geometry",
     "assistant.vision.trace", "assistant.profile", "assistant.settings"),
    # reading one picture
    ("assistant.vision",),
    # what a session remembers between pictures, and what to step on next
    ("assistant.session", "assistant.route", "assistant.route_overlay", "assistant.placement",
     "assistant.masking", "assistant.calibrate", "assistant.demo_room"),
    # the live loop and what it shows or keeps
    ("assistant.live", "assistant.sequence", "assistant.recorder", "assistant.report",
     "assistant.steps"),
    # the shells: command line and Qt
    ("assistant.commands", "assistant.gui", "assistant.cli", "assistant.__main__",
     "assistant"),
)

#: the lab: used by tests and benchmarks only, never by the product
LAB = ("lab",)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _matches(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str) -> int:
    best, layer = -1, len(LAYERS) - 1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if _matches(name, prefix) and len(prefix) > best:
                best, layer = len(prefix), index
    return layer


def is_lab(name: str) -> bool:
    return any(_matches(name, prefix) for prefix in LAB)


def imports_of(tree: ast.AST, name: str) -> list[tuple[int, str]]:
    """Every assistant module imported, with the line it is imported on."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
    return found


def _known(module: str, modules: set[str]) -> str | None:
    """The package module an imported name refers to (a name inside a module: the module)."""
    while module and module not in modules:
        module = module.rpartition(".")[0]
    return module or None


def breaches(package: Path = PACKAGE) -> list[str]:
    """Every breach of the rules in ``package`` (a folder named ``assistant``), as lines."""
    root = package.parent
    paths = sorted(package.rglob("*.py"))
    modules = {module_name(path, root) for path in paths}
    found: list[str] = []
    for path in paths:
        name = module_name(path, root)
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root)
        tree = ast.parse(text)
        if len(text.splitlines()) > MAX_MODULE_LINES:
            found.append(f"{where}: {len(text.splitlines())} lines (at most "
                         f"{MAX_MODULE_LINES})")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{where}:{node.lineno}: {node.name} is {length} lines "
                                 f"(at most {MAX_FUNCTION_LINES})")
        for line, imported in imports_of(tree, name):
            if imported.split(".")[0] == "PyQt6" and not _matches(name, "assistant.gui"):
                found.append(f"{where}:{line}: imports PyQt6 outside assistant/gui")
            if is_lab(imported):
                found.append(f"{where}:{line}: the product imports the lab ({imported})")
                continue
            target = _known(imported, modules)
            if target is None or target == name:
                continue
            if layer_of(target) > layer_of(name) and not _matches(name, target):
                found.append(f"{where}:{line}: {name} (layer {layer_of(name)}) imports "
                             f"{target} (layer {layer_of(target)}) above it")
    return sorted(set(found))


def main() -> int:
    found = breaches()
    for line in found:
        print(line)
    print(f"{len(found)} breach(es) of the structure rules" if found
          else "the structure rules hold")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
