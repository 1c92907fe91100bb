"""The import graph of python/mahjong_core, built with ast (no import is run): its cycles, and the
imports between game families.

    python tools/import_graph.py            # cycles of module-level imports, family cross-imports
    python tools/import_graph.py --all      # also count imports inside functions and TYPE_CHECKING
    python tools/import_graph.py --root ../other-checkout   # another tree's package

A module-level cycle is an import circle (one module of it runs while another is half imported);
``--all`` shows the circles that function-level imports would close.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "mahjong_core"
FAMILIES = PACKAGE / "families"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


COMPILED = Path(__file__).resolve().parents[1] / "src" / "mahjong_core"


def modules() -> dict[str, Path]:
    """Module name -> source of every Python module of the package, and of each compiled one
    (its ``.pyx``: a leaf here, its own imports are not followed)."""
    out = {f"mahjong_core.{p.stem}": p for p in sorted(COMPILED.glob("*.pyx"))}
    out.update({module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))})
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, module: str, everywhere: bool) -> list[tuple[str, int]]:
    """(imported module, line) of a file: module level only, or ``everywhere`` (functions and
    ``if TYPE_CHECKING:`` blocks too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    known = modules()
    out: list[tuple[str, int]] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and _is_type_checking(node):
                if everywhere:
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if everywhere or isinstance(node, ast.ClassDef):
                    visit(node.body)
            elif isinstance(node, ast.Import):
                out.extend((a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "mahjong_core")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "mahjong_core":
                    continue
                for alias in node.names:   # "from . import cli" imports the submodule
                    sub = f"{target}.{alias.name}"
                    out.append((sub if sub in known else target, node.lineno))
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                        visit([getattr(h, "body", h) for h in inner] if field == "handlers" else inner) \
                            if field != "handlers" else [visit(h.body) for h in inner]

    visit(tree.body)
    return out


def graph(everywhere: bool = False) -> dict[str, set[str]]:
    known = modules()
    g: dict[str, set[str]] = {m: set() for m in known}
    for m, path in known.items():
        if path.suffix != ".py":
            continue
        for target, _ in imports(path, m, everywhere):
            while target and target not in known:
                target = target.rpartition(".")[0]
            # a module's own packages are in sys.modules while it runs: no edge to them
            if target and target != m and not m.startswith(target + "."):
                g[m].add(target)
            # importing a.b.c runs a/__init__ and a/b/__init__ first
            parent = target.rpartition(".")[0]
            while parent and parent != m and not m.startswith(parent + "."):
                if parent in known:
                    g[m].add(parent)
                parent = parent.rpartition(".")[0]
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in g:
        if v not in index:
            strong(v)
    return out


def family_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "families" and (FAMILIES / parts[2]).is_dir():
        return parts[2]
    return None


def cross_family_imports() -> list[tuple[str, int, str]]:
    """(module, line, imported module) where one family imports another, anywhere in the file."""
    out = []
    for m, path in modules().items():
        mine = family_of(m)
        if path.suffix != ".py":
            continue
        if mine is None:
            continue
        for target, line in imports(path, m, everywhere=True):
            theirs = family_of(target)
            if theirs is not None and theirs != mine:
                out.append((m, line, target))
    return out


def main() -> int:
    global PACKAGE, FAMILIES, COMPILED
    everywhere = "--all" in sys.argv
    if "--root" in sys.argv:
        root = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
        PACKAGE, COMPILED = root / "python" / "mahjong_core", root / "src" / "mahjong_core"
        FAMILIES = PACKAGE / "families"
    found = cycles(graph(everywhere))
    print(f"import cycles ({'all imports' if everywhere else 'module-level imports'}): {len(found)}")
    for comp in found:
        print(f"  {len(comp)} modules: {', '.join(comp)}")
    cross = cross_family_imports()
    print(f"imports between families: {len(cross)}")
    for m, line, target in cross:
        print(f"  {m}:{line} imports {target}")
    return 1 if found or cross else 0


if __name__ == "__main__":
    sys.exit(main())
