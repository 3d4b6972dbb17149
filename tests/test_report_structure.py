"""The package's shape: stages that import only from earlier ones, no import cycle, no long module
doing several jobs, and a figure added to
the one table of bet figures (:data:`exactodds.report.figures.BET_FIGURES`) shown by every
format."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

import exactodds
from exactodds.report import Sheet, build_sheets, render_file, render_sheets
from exactodds.report import figures as figures_module
from exactodds.report.designer import DATA_ID
from exactodds.report.figures import BET_FIGURES, BetFigure, Kind, View, in_view
from tests.extras import need

PACKAGE = Path(exactodds.__file__).parent

MAX_LINES = 600
"""A module longer than this must be one job, named in :data:`LONG_MODULES`."""

LONG_MODULES = {
    "bets/budget.py": "work budgets: each command's cost estimated, and refused up front when over",
    "analysis/kernel.py": "the modular-arithmetic evaluation kernel (numpy and its numba twin)",
    "figures/compare.py": "house edges over game variants, and their table",
    "protection/information.py": "exact conditional figures given seen cards",
    "protection/exposure.py": "information exposure: what a seen card (sort, flash, burn) is worth",
    "deal/round.py": "one round of baccarat: tableau play and its features",
    "counting/engine.py": "the card engine's loop over deals (metered for a probe), kept whole",
}
"""Modules over :data:`MAX_LINES` lines and the one job each holds."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(
    name: str, path: Path, modules: dict[str, Path], *, with_typing: bool = False
) -> set[str]:
    """Package modules ``name`` imports, lazily or not (``if TYPE_CHECKING:`` blocks aside,
    unless ``with_typing``): ``from package import submodule`` is an edge to the submodule, not
    to the package."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node) and not with_typing:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = name.split(".")
                parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(base)
        for sub in ast.iter_child_nodes(node):
            visit(sub)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    edges = set()
    for imported in found:
        target = imported
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            edges.add(target)
    return edges


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


KNOWN_CYCLES: list[list[str]] = []
"""Import cycles tolerated for now: none."""


def test_no_import_cycle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert [c for c in _cycles(graph) if c not in KNOWN_CYCLES] == []


def test_the_cycle_finder_finds_a_lazy_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    modules = {"p.sheet": Path("sheet.py"), "p.mc": Path("mc.py")}
    source = "def f():\n    from p.mc import x\n"
    # the lazy import inside a function is an edge, as the old report/sheet.py ↔ montecarlo.py
    assert "p.mc" in _imports_of_source("p.sheet", source, modules)


def _imports_of_source(
    name: str, source: str, modules: dict[str, Path], *, with_typing: bool = False
) -> set[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "module.py"
        path.write_text(source, encoding="utf-8")
        return _imports(name, path, modules, with_typing=with_typing)


def test_no_comment_cites_the_seed_documents() -> None:
    """Tests and code cite public sources or hand checks, never the project's seed documents."""
    cited = [
        str(path)
        for folder in (PACKAGE, PACKAGE.parent / "tests")
        for path in folder.rglob("*.py")
        if re.search(r"\b[Ss]eed 00\d", path.read_text(encoding="utf-8"))
    ]
    assert cited == []


def test_no_long_module_with_several_jobs() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    unexplained = {path: n for path, n in long.items() if path not in LONG_MODULES}
    assert unexplained == {}, f"split these modules by job, or name their one job: {unexplained}"


# -- the layout by stage --------------------------------------------------------------------------

STAGES = (
    "deal",
    "language",
    "counting",
    "bets",
    "figures",
    "games",
    "compliance",
    "analysis",
    "protection",
    "session",
    "report",
    "cli",
)
"""The subpackages in the order of the data flow: a module imports only from its own stage, an
earlier one, or the shared helpers at the top of the package (stage -1)."""

MAX_TOP_MODULES = 15
"""Most modules at the top of the package (helpers every stage shares), ``__init__`` included."""


def _stage(module: str) -> int:
    parts = module.split(".")
    if module in ("exactodds", "exactodds.__main__"):
        # the package re-exports the public names of every stage, lazily (PEP 562), for users:
        # the last stage, like ``python -m exactodds``, which runs the command line
        return STAGES.index("cli")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in STAGES):
        return STAGES.index(parts[1])
    return -1


FORWARD_IMPORTS: dict[tuple[str, str], str] = {}
"""Imports of a later stage tolerated, each with its reason: none."""


def _backward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import of a later stage into an earlier one, as (importer, imported)."""
    return sorted((a, b) for a, targets in graph.items() for b in targets if _stage(b) > _stage(a))


def test_every_module_sits_in_a_stage_or_is_a_shared_helper() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    packages = sorted(
        p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    )
    assert len(top) <= MAX_TOP_MODULES, top
    assert packages == sorted(STAGES)


def test_no_import_from_a_later_stage_into_an_earlier_one() -> None:
    """Type-only imports (``if TYPE_CHECKING:``) included: a type sits in the stage of what it
    describes, so an earlier stage never names a later one's type either."""
    modules = _modules()
    graph = {
        name: _imports(name, path, modules, with_typing=True) for name, path in modules.items()
    }
    assert [edge for edge in _backward(graph) if edge not in FORWARD_IMPORTS] == []


def test_the_stage_check_reads_type_only_imports() -> None:
    modules = {"p.bets.x": Path("x.py"), "p.figures.y": Path("y.py")}
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.figures.y import T\n"
    assert _imports_of_source("p.bets.x", source, modules) == set()  # no cycle at run time
    assert _imports_of_source("p.bets.x", source, modules, with_typing=True) == {"p.figures.y"}


def test_the_stage_check_finds_a_backward_import() -> None:
    graph = {
        "exactodds.bets.paytable": {"exactodds.deal.shoe", "exactodds.errors"},
        "exactodds.errors": {"exactodds.report.sheet"},  # a helper reaching into the sheets
        "exactodds.analysis.eor": {"exactodds.report.html"},  # analysis reaching forward
    }
    assert _backward(graph) == [
        ("exactodds.analysis.eor", "exactodds.report.html"),
        ("exactodds.errors", "exactodds.report.sheet"),
    ]


def test_the_old_module_names_still_import_as_the_moved_modules() -> None:
    import importlib

    from exactodds._moved import MOVED

    for old, new in MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
        assert not (PACKAGE.parent / (old.replace(".", "/") + ".py")).exists(), old


# -- one table of bet figures --------------------------------------------------------------------

NEW = BetFigure(
    "edge_in_words",
    "House edge, once more",
    Kind.PERCENT,
    source="house_edge",
    short="Edge again",
)
"""A figure added through the public table (the house edge under another key)."""


@pytest.fixture
def with_new_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(figures_module, "BET_FIGURES", (*BET_FIGURES, NEW))


def _tie_sheet() -> Sheet:
    return build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01", version="test")[0]


TIE_EDGE = "14.3596%"  # Tie 8:1 on 8 decks: 14.36% (Wizard of Odds, baccarat), 4 places here


@pytest.mark.usefixtures("with_new_figure")
def test_a_new_figure_appears_in_every_format() -> None:
    sheet = _tie_sheet()
    assert NEW in in_view(View.SUMMARY) and NEW in in_view(View.CSV)

    md = render_sheets([sheet], "md")
    summary = next(
        line for line in md.splitlines() if line.startswith("| Bet ") and "House edge" in line
    )
    assert summary.rstrip(" |").endswith("Edge again")
    assert re.search(r"\| House edge, once more +\| +14\.3596% \|", md)
    exact_edge = json.loads(render_sheets([sheet], "json"))["bets"][0]["house_edge"]
    assert re.search(rf"\| House edge, once more +\| +{re.escape(exact_edge)} +\|", md)

    html = render_sheets([sheet], "html")
    assert f'<span data-bet="tie" data-figure="edge_in_words">{TIE_EDGE}</span>' in html
    data = json.loads(html.split(f'id="{DATA_ID}">')[1].split("</script>")[0])
    assert {"key": "edge_in_words", "kind": "percent", "source": "house_edge", "exact": True} in (
        data["figures"]
    )

    bet = json.loads(render_sheets([sheet], "json"))["bets"][0]
    assert bet["edge_in_words"] == bet["house_edge"] == "103841353768/723147898655"

    lines = list(csv.DictReader(io.StringIO(render_sheets([sheet], "csv"))))
    (line,) = [x for x in lines if x["kind"] == "figure" and x["item"] == "edge_in_words"]
    assert line["exact"] == bet["house_edge"] and line["value"] == "0.1435962878"

    openpyxl = need("openpyxl", "xlsx")
    data = render_file(sheet, "xlsx")
    assert isinstance(data, bytes)
    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)  # formulas' cached values
    header = [c.value for c in next(r for r in book["Summary"].iter_rows() if r[0].value == "Bet")]
    assert "Edge again" in header and "Edge again (exact)" in header
    rows = {r[0].value: r[1].value for r in book["tie"].iter_rows() if r[0].value}
    assert rows["House edge, once more"] == pytest.approx(0.1435962878)


def test_every_format_shows_the_table_figures_in_its_view() -> None:
    """Without additions: the keys each view shows come from the table (no hand-kept list)."""
    sheet = _tie_sheet()
    bet = json.loads(render_sheets([sheet], "json"))["bets"][0]
    json_keys = [f.key for f in in_view(View.JSON) if not f.optional]
    assert [k for k in bet if k in {f.key for f in BET_FIGURES}] == json_keys
    lines = csv.DictReader(io.StringIO(render_sheets([sheet], "csv")))
    csv_keys = [x["item"] for x in lines if x["kind"] == "figure"]
    assert csv_keys == [f.key for f in in_view(View.CSV) if not f.optional]


def test_an_optional_figure_is_left_out_where_the_bet_has_none() -> None:
    (touch,) = build_sheets(["touch"], bet_ids=["banker"], date="2024-01-01")
    bet = json.loads(render_sheets([touch], "json"))["bets"][0]
    assert "unrounded_rtp" in bet
    assert "unrounded_rtp" not in json.loads(render_sheets([_tie_sheet()], "json"))["bets"][0]
    assert replace(NEW, optional=True).present(touch.bets[0])
