"""Count the structural figures of ``src/cardtable``: import cycles between modules (imports made
only for type checking included), loops between packages, functions over 80 lines, uses of
``Any``, reads of another object's private name, and the places that phrase a move in words.

    python benchmarks/structure.py            # the figures
    python benchmarks/structure.py --list     # and what each figure counts, by name

Nothing is imported or run: the source is parsed. A module's imports are every ``import`` and
``from … import`` in it, at any depth (inside functions and ``if TYPE_CHECKING:`` too).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "cardtable"
LONG = 80

# A move phrased in words: the English message catalog (other languages translate it), and
# every function outside it that reads an event's kind (``e.type == "draw"``,
# ``e["type"]``, ``match e.type``, a table keyed by kind) and holds sentences to say. Every
# module with such a function is a place that phrases moves; one package should be the only
# one. In the browser's JavaScript, a file that switches on ``.type`` and holds sentences in its
# string literals (a template literal's text around its ``${…}`` parts, as an f-string's).
_KINDS = frozenset(
    {
        "peek",
        "draw",
        "replace",
        "discard",
        "spy",
        "exchange",
        "look",
        "claim",
        "call",
        "drop",
        "reshuffle",
        "snap_open",
        "snap",
        "penalty",
        "play",
        "pass",
        "turn",
    }
)
_SENTENCE = re.compile(r"[A-Za-z]{2,} [a-z]{2,} ")
_JS_KIND = re.compile(r"""(?:type\s*===\s*|case\s+)["'](\w+)["']""")
_JS_COMMENT = re.compile(r"^\s*//[^\n]*$|/\*.*?\*/", re.S | re.M)


@dataclass
class Figures:
    """What the count found."""

    modules: dict[str, set[str]] = field(default_factory=dict)
    cycles: list[list[str]] = field(default_factory=list)
    package_loops: list[list[str]] = field(default_factory=list)
    long_functions: list[tuple[str, int]] = field(default_factory=list)
    any_uses: dict[str, int] = field(default_factory=dict)
    private_reads: list[str] = field(default_factory=list)
    phrasing: list[str] = field(default_factory=list)


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, is_package: bool, tree: ast.AST, known: set[str]) -> set[str]:
    """The project's modules ``module`` imports (a name imported from a package that is
    itself a module counts as that module)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE):
                    out.add(_nearest(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            if not target.startswith(PACKAGE):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else _nearest(target, known))
    out.discard(module)
    return out


def _nearest(name: str, known: set[str]) -> str:
    while name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _sccs(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one member."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
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

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _simple_cycles(graph: dict[str, set[str]], members: list[str]) -> Iterator[list[str]]:
    """The elementary cycles inside one component, each found once from its least member."""
    order = sorted(members)
    for i, start in enumerate(order):
        yield from _cycles_from(graph, start, set(order[i:]), [start])


def _cycles_from(
    graph: dict[str, set[str]], start: str, allowed: set[str], path: list[str]
) -> Iterator[list[str]]:
    for w in sorted(graph.get(path[-1], ())):
        if w == start:
            yield list(path)
        elif w in allowed and w not in path:
            yield from _cycles_from(graph, start, allowed, [*path, w])


def _package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else module


_DOCUMENTED = {("os", "_exit")}
"""Names of the standard library that start with ``_`` and are its documented interface."""


class _PrivateReads(ast.NodeVisitor):
    """``x._name`` where ``x`` is not ``self``, ``cls`` or ``super()``, and ``from m import
    _name`` from another module."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.found: list[str] = []

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if name.startswith("_") and not name.startswith("__"):
            base = node.value
            own = (isinstance(base, ast.Name) and base.id in {"self", "cls"}) or (
                isinstance(base, ast.Call)
                and isinstance(base.func, ast.Name)
                and base.func.id == "super"
            )
            documented = isinstance(base, ast.Name) and (base.id, name) in _DOCUMENTED
            if not own and not documented:
                self.found.append(f"{self.where}:{node.lineno} .{name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                self.found.append(f"{self.where}:{node.lineno} import {alias.name}")


def count(root: Path = ROOT) -> Figures:
    """The figures for the package under ``root``."""
    figures = Figures()
    trees: dict[str, tuple[Path, ast.AST, bool]] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        module = _module_name(path, root)
        tree = ast.parse(path.read_text(), str(path))
        trees[module] = (path, tree, path.name == "__init__.py")
    known = set(trees)
    for module, (path, tree, is_package) in trees.items():
        figures.modules[module] = _imports(module, is_package, tree, known)
        rel = str(path.relative_to(root))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONG:
                    figures.long_functions.append((f"{rel}:{node.lineno} {node.name}", length))
        uses = sum(
            1
            for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and node.id == "Any")
            or (isinstance(node, ast.Attribute) and node.attr == "Any")
        )
        if uses:
            figures.any_uses[rel] = uses
        reads = _PrivateReads(rel)
        reads.visit(tree)
        figures.private_reads.extend(reads.found)
        if _phrasers(tree):
            figures.phrasing.append(rel)
    for comp in _sccs(figures.modules):
        figures.cycles.extend(_simple_cycles(figures.modules, comp))
    packages: dict[str, set[str]] = {}
    for module, targets in figures.modules.items():
        src = _package(module)
        for t in targets:
            dst = _package(t)
            if dst != src and src != PACKAGE and dst != PACKAGE:
                packages.setdefault(src, set()).add(dst)
    for comp in _sccs(packages):
        figures.package_loops.extend(_simple_cycles(packages, comp))
    static = root / PACKAGE / "web" / "static"
    for js in sorted(static.glob("*.js")) if static.exists() else []:
        text = js.read_text()
        code = _JS_COMMENT.sub("", text)
        said = any(_SENTENCE.search(lit + " ") for lit in _js_strings(text))
        if set(_JS_KIND.findall(code)) & _KINDS and said:
            figures.phrasing.append(str(js.relative_to(root)))
    for po in sorted((root / PACKAGE).rglob("*.po")):  # a message catalog: one place
        if po.parent.parent.parent.name == "locale" and po.parent.parent.name == "en":
            figures.phrasing.append(str(po.relative_to(root)))
    figures.long_functions.sort(key=lambda item: -item[1])
    return figures


_JS_REGEX_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")
"""Characters after which a ``/`` begins a regular expression literal, not a division."""
_JS_REGEX_WORD = re.compile(r"\b(?:return|typeof|case|in|of)\s*$")
"""Words after which a ``/`` begins a regular expression literal."""


def _js_strings(code: str) -> list[str]:
    """The text of every string literal of JavaScript source ``code``, its comments and regular
    expression literals skipped; a template literal gives the text around its ``${…}`` parts,
    each on its own (as an f-string's constant parts), and the literals inside the parts."""
    out: list[str] = []
    _js_scan(code, 0, out, inside=False)
    return out


def _js_scan(code: str, i: int, out: list[str], *, inside: bool) -> int:
    """Read ``code`` from ``i``, the text of its string literals into ``out``; ``inside`` a
    template's ``${…}`` part, stop after the part's closing brace. The index it stopped at."""
    n, last, depth = len(code), "", 0
    while i < n:
        ch, two = code[i], code[i : i + 2]
        if two == "//":
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif two == "/*":
            end = code.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch in "'\"":
            j = i + 1
            while j < n and code[j] not in (ch, "\n"):
                j += 2 if code[j] == "\\" else 1
            out.append(code[i + 1 : j])
            i, last = j + 1, ch
        elif ch == "`":
            i, last = _js_template(code, i + 1, out), ch
        elif ch == "/" and (
            not last or last in _JS_REGEX_AFTER or _JS_REGEX_WORD.search(code[max(0, i - 8) : i])
        ):
            j, in_class = i + 1, False
            while j < n and code[j] != "\n" and (in_class or code[j] != "/"):
                if code[j] == "\\":
                    j += 1
                elif code[j] in "[]":
                    in_class = code[j] == "["
                j += 1
            i, last = j + 1, "/"
        else:
            if inside and ch == "{":
                depth += 1
            elif inside and ch == "}":
                if not depth:
                    return i + 1
                depth -= 1
            if not ch.isspace():
                last = ch
            i += 1
    return i


def _js_template(code: str, i: int, out: list[str]) -> int:
    """Read the template literal whose text begins at ``i`` (after its backtick) into ``out``;
    the index after its closing backtick."""
    start, n = i, len(code)
    while i < n and code[i] != "`":
        if code[i] == "\\":
            i += 2
        elif code.startswith("${", i):
            out.append(code[start:i])
            i = start = _js_scan(code, i + 2, out, inside=True)
        else:
            i += 1
    out.append(code[start:i])
    return i + 1


def _reads_kind(node: ast.AST, names: frozenset[str] = frozenset()) -> bool:
    """``x.type`` or ``x["type"]`` (an event's kind), or a name given one of them."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr == "type"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "type"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        first = node.args[0] if node.args else None
        return node.func.attr == "get" and isinstance(first, ast.Constant) and first.value == "type"
    return False


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the module's docstring nodes (a docstring documents; it phrases nothing)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            out.add(id(body[0].value))
    return out


def _phrasers(tree: ast.AST) -> list[str]:
    """The functions of a module that tell events apart by kind and hold a sentence (a string
    that is not a docstring)."""
    docs = _docstrings(tree)
    out: list[str] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        kinds: set[str] = set()
        sentence = False
        names = frozenset(
            t.id
            for a in ast.walk(fn)
            if isinstance(a, ast.Assign) and _reads_kind(a.value)
            for t in a.targets
            if isinstance(t, ast.Name)
        )
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Compare) and _reads_kind(sub.left, names):
                for c in sub.comparators:
                    consts = c.elts if isinstance(c, (ast.Tuple, ast.Set, ast.List)) else [c]
                    kinds |= {
                        str(k.value)
                        for k in consts
                        if isinstance(k, ast.Constant) and k.value in _KINDS
                    }
            elif isinstance(sub, ast.Match) and _reads_kind(sub.subject, names):
                for case in sub.cases:
                    for pat in ast.walk(case.pattern):
                        if isinstance(pat, ast.MatchValue) and isinstance(pat.value, ast.Constant):
                            kinds.add(str(pat.value.value))
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                said = id(sub) not in docs and bool(_SENTENCE.search(sub.value + " "))
                sentence = sentence or said
        if kinds and sentence:
            out.append(fn.name)
    return out


def main() -> None:
    """Print the figures (and with ``--list``, what each counts)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name what each figure counts")
    parser.add_argument(
        "--src", type=Path, default=ROOT, help="the src folder to count (another checkout's)"
    )
    args = parser.parse_args()
    f = count(args.src.resolve())
    rows = [
        ("import cycles between modules", len(f.cycles)),
        ("loops between packages", len(f.package_loops)),
        (f"functions over {LONG} lines", len(f.long_functions)),
        ("uses of Any", sum(f.any_uses.values())),
        ("reads of another object's private name", len(f.private_reads)),
        ("places that phrase a move in words", len(f.phrasing)),
    ]
    for label, value in rows:
        print(f"{label:<42} {value:>5}")
    if args.list:
        print("\nimport cycles:")
        for c in f.cycles:
            print("  " + " -> ".join([*c, c[0]]))
        print("package loops:")
        for c in f.package_loops:
            print("  " + " -> ".join([*c, c[0]]))
        print("long functions:")
        for name, length in f.long_functions:
            print(f"  {length:>4}  {name}")
        print("Any, by file:")
        for rel, n in sorted(f.any_uses.items(), key=lambda item: -item[1]):
            print(f"  {n:>4}  {rel}")
        print("private reads:")
        for line in f.private_reads:
            print(f"  {line}")
        print("phrasing places:")
        for rel in f.phrasing:
            print(f"  {rel}")


if __name__ == "__main__":
    main()
