"""XLSX sheets: the workbook read back with openpyxl equals the JSON sheet exactly, counts Excel
cannot hold exactly are text, no text cell is a formula, and the bytes depend only on the
inputs and the date. Also what both binary formats (PDF, XLSX) do without their extra or --out."""

from __future__ import annotations

import html
import io
import json
import re
import sys
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.paytable import Paytable
from exactodds.deal.shoe import Shoe
from exactodds.errors import MissingExtraError
from exactodds.escape import formula_like
from exactodds.numbers import grouped
from exactodds.report import Sheet, build_sheet, build_sheets, render_file, render_sheets
from exactodds.report.figures import FLAG
from exactodds.report.xlsx import BIG_COUNT_NOTE, MAX_EXACT_INT, render_xlsx, xlsx_date
from tests.cli_helpers import Cli
from tests.extras import need
from tests.formulas import tokens
from tests.test_report_escaping import PAYTABLE as HOSTILE

openpyxl = need("openpyxl", "xlsx")


def workbook(data: bytes, formulas: bool = False) -> Any:
    """The workbook as a reader that does not calculate sees it: every formula cell its cached
    value (with ``formulas``: the formulas themselves)."""
    return openpyxl.load_workbook(io.BytesIO(data), data_only=not formulas)


def rows(ws: Any) -> list[list[Any]]:
    return [list(r) for r in ws.iter_rows(values_only=True)]


def table(ws: Any, first: str) -> tuple[list[str], list[list[Any]]]:
    """The header row starting with ``first`` and the rows under it, up to a blank row."""
    body = rows(ws)
    start = next(i for i, r in enumerate(body) if r[0] == first)
    out = []
    for r in body[start + 1 :]:
        if all(v is None for v in r):
            break
        out.append(r)
    return body[start], out


@pytest.fixture(scope="module")
def classic_sheet() -> Sheet:
    (sheet,) = build_sheets(["classic"], date="2024-01-01")
    return sheet


def test_workbook_equals_the_json_sheet(classic_sheet: Sheet) -> None:
    book = workbook(render_xlsx(classic_sheet))
    data = json.loads(render_sheets([classic_sheet], "json"))
    bets = data["bets"]
    assert book.sheetnames == ["Summary", *(b["id"] for b in bets), "Inputs"]
    header, summary = table(book["Summary"], "Bet")
    col = {name: i for i, name in enumerate(header)}
    assert [r[col["Id"]] for r in summary] == [b["id"] for b in bets]
    for r, b in zip(summary, bets, strict=True):
        for label, key in (
            ("House edge", "house_edge"),
            ("Per resolved bet", "house_edge_resolved"),
            ("RTP", "rtp"),
            ("Hit frequency", "hit_frequency"),
        ):
            assert r[col[f"{label} (exact)"]] == b[key], (b["id"], key)
            # a formula over the bet sheet, cached as the double nearest the figure
            assert r[col[label]] == float(Fraction(b[key]))
        assert r[col["Variance (exact)"]] == b["variance"]
        assert r[col["Largest win (exact)"]] == b["largest_win"]
        assert r[col["Its probability (exact)"]] == b["largest_win_probability"]
        assert r[col["Max round"]] == b["max_round"]
    for b in bets:
        ws = book[b["id"]]
        assert ws["A1"].value == f"{b['name']} ({b['id']})"
        header, body = table(ws, "Event")
        col = {name: i for i, name in enumerate(header)}
        *lines, total = body
        assert len(lines) == len(b["rows"])
        for r, row in zip(lines, b["rows"], strict=True):
            assert r[col["Event"]] == row["event"]
            assert (r[col["Pays"]], r[col["To 1"]], r[col["For 1"]]) == (
                row["pays"],
                row["to_one"],
                row["for_one"],
            )
            assert type(r[col["Combinations"]]) is int
            assert r[col["Combinations"]] == row["combinations"]
            assert r[col["Probability (exact)"]] == row["probability"]
            assert r[col["Return (exact)"]] == row["return"]
            assert r[col["Net (exact)"]] == row["net"]
        assert total[col["Combinations"]] == b["total"]["combinations"] == data["universe"]
        assert total[col["Return (exact)"]] == b["total"]["return"] == b["ev"]
        _, figures = table(ws, "Figure")
        exact = {r[0]: r[2] for r in figures}
        assert exact["House edge (pushes counted)"] == b["house_edge"]
        assert exact["Variance"] == b["variance"]
    _, inputs = table(book["Inputs"], "Item")
    facts = {r[0]: r[1] for r in inputs}
    assert facts["Paytable SHA-256"] == data["sha256"]
    assert facts["Command"] == data["command"] == "exactodds report classic"
    assert facts["Universe (ordered six-card sequences)"] == data["universe"]
    assert facts["Date"] == "2024-01-01"


def test_compliance_and_confidence_equal_the_json_sheet() -> None:
    (sheet,) = build_sheets(
        ["classic"], bet_ids=["tie", "lucky_six"], date="2024-01-01", against="gli-11,adm,mga,nj"
    )
    book = workbook(render_xlsx(sheet))
    data = json.loads(render_sheets([sheet], "json"))
    assert book.sheetnames == ["Summary", "tie", "lucky_six", "Compliance", "Inputs"]
    compliance = data["compliance"]
    ws = book["Compliance"]
    assert ws["A1"].value == (
        f"Compliance — {compliance['summary']['checks']} checks: "
        f"{compliance['summary']['pass']} pass, {compliance['summary']['fail']} fail, "
        f"{compliance['summary']['n/a']} n/a; verdict {compliance['verdict']}"
    )
    header, checks = table(ws, "Profile")
    col = {name: i for i, name in enumerate(header)}
    assert len(checks) == len(compliance["checks"]) == 2 * 4 * 2  # bets, profiles, RTP ≤ 100%
    assert {c["verdict"] for c in compliance["checks"]} >= {"pass", "fail"}
    for r, c in zip(checks, compliance["checks"], strict=True):
        got = {
            "profile": r[col["Profile"]],
            "rule": r[col["Rule"]],
            "bet": r[col["Bet"]],
            "value": r[col["Value (exact)"]],
            "limit": r[col["Limit (exact)"]],
            "verdict": r[col["Verdict"]],
            "source": r[col["Source"]],
            "note": r[col["Note"]] or "",
        }
        assert got == c
        if r[col["Value"]] is not None:  # an exact value: the number beside it
            assert r[col["Value"]] == float(f"{float(Fraction(c['value'])):.16g}")
    _, profiles = table(ws, "Profile id")
    assert [list(r[:5]) for r in profiles] == [
        [p["id"], p["name"], p["source"], p["file"], p["sha256"]] for p in compliance["profiles"]
    ]
    for b in data["bets"]:
        ws = book[b["id"]]
        _, figures = table(ws, "Figure")
        vi = next(r for r in figures if r[0].startswith("Volatility index"))
        assert vi[2] == b["volatility_index"] and vi[1] == float(Fraction(vi[2]))
        header, ranges = table(ws, "Rounds")
        col = {name: i for i, name in enumerate(header)}
        assert [
            {
                "rounds": r[col["Rounds"]],
                "level": r[col["Level (exact)"]],
                "low": r[col["RTP low (decimal)"]],
                "high": r[col["RTP high (decimal)"]],
            }
            for r in ranges
        ] == b["confidence"]
        assert all(type(r[col["Rounds"]]) is int for r in ranges)
        assert all(
            r[col["RTP low"]] == float(Fraction(r[col["RTP low (decimal)"]])) for r in ranges
        )


def test_rounded_bet_lists_rtp_by_stake() -> None:
    (sheet,) = build_sheets(["touch"], bet_ids=["banker"], date="2024-01-01")
    data = json.loads(render_sheets([sheet], "json"))["bets"][0]
    _, stakes = table(workbook(render_xlsx(sheet))["banker"], "Stake")
    assert [r[2] for r in stakes[:-1]] == [s["rtp"] for s in data["rtp_by_stake"]]
    assert stakes[-1][2] == data["unrounded_rtp"]


def test_counts_above_2_to_53_are_text_with_a_note(classic: Paytable) -> None:
    # 8 decks' universe fits in a double, 9 decks' does not
    assert Shoe.decks(8).size * 415 * 414 * 413 * 412 * 411 < MAX_EXACT_INT
    sheet = build_sheet(classic, shoe=Shoe.decks(9), bet_ids=["player_pair"])
    book = workbook(render_xlsx(sheet))
    ws = book["player_pair"]
    header, body = table(ws, "Event")
    counts = [r[header.index("Combinations")] for r in body]
    exact = [*(row.combinations for row in sheet.bets[0].figures.rows), sheet.universe]
    assert sheet.universe > MAX_EXACT_INT
    for cell, n in zip(counts, exact, strict=True):
        assert cell == (grouped(n) if n > MAX_EXACT_INT else n)
        assert isinstance(cell, str) == (n > MAX_EXACT_INT)
    assert any(isinstance(c, int) for c in counts)  # the player pairs still fit
    assert [BIG_COUNT_NOTE] in [[v for v in r if v is not None] for r in rows(ws)]
    inputs = {r[0]: r[1] for r in rows(book["Inputs"])}
    assert inputs["Universe (ordered six-card sequences)"] == grouped(sheet.universe)


def test_a_thousand_decks(tmp_path: Path, classic: Paytable) -> None:
    sheet = build_sheet(classic, shoe=Shoe.decks(1000), bet_ids=["tie"])
    header, body = table(workbook(render_xlsx(sheet))["tie"], "Event")
    assert all(isinstance(r[header.index("Combinations")], str) for r in body)
    assert [Fraction(r[header.index("Probability (exact)")]) for r in body][-1] == 1


def test_text_cells_are_never_formulas(tmp_path: Path) -> None:
    path = tmp_path / "hostile.toml"
    long_ids = "\n".join(
        f'[bets.{"x" * 40}{n}]\nname = "Long {n}"\n'
        'rows = [{ when = "winner == tie", pays = "8:1", event = "Tie" },'
        ' { when = "otherwise", pays = "lose", event = "No tie" }]\n'
        for n in range(2)
    )
    path.write_text(HOSTILE + long_ids, encoding="utf-8")
    (sheet,) = build_sheets([str(path)], date="2024-06-01")
    data = render_xlsx(sheet)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = b"".join(archive.read(n) for n in archive.namelist() if n.startswith("xl/"))
    # the only formulas are the live ones exactodds writes, over cell references, within the
    # evaluator's subset; their only strings are its own: no text of the input becomes a formula
    formulas = [html.unescape(f.decode()) for f in re.findall(rb"<f[ >]([^<]*)</f>", xml)]
    assert formulas
    for formula in formulas:
        strings = {text for kind, text in tokens(formula) if kind == "string"}
        assert strings <= {'">0"', f'"{FLAG}"', '""'}, formula
    book = workbook(data, formulas=True)
    names = book.sheetnames
    assert len(names) == len({n.lower() for n in names}) and max(map(len, names)) <= 31
    _, body = table(book["player"], "Event")
    events = [r[0] for r in body[:-1]]
    assert events == [row.event for row in sheet.bet("player").figures.rows]
    formula_cells = 0
    for ws in book.worksheets:
        for line in ws.iter_rows():
            for cell in line:
                if isinstance(cell.value, str) and cell.data_type == "f":  # a live formula
                    assert cell.value.removeprefix("=") in formulas
                elif isinstance(cell.value, str):
                    assert cell.data_type == "s"
                    if formula_like(cell.value):
                        formula_cells += 1
                        assert cell.quotePrefix, cell.value
    assert formula_cells >= 5  # the hostile name and events arrived as text


def test_a_file_name_with_control_characters_makes_a_readable_workbook(
    tmp_path: Path, cli: Cli
) -> None:
    """The paytable's name defaults to its file's; escapes in it must not reach the terminal
    nor the workbook's XML (openpyxl could not read the file back)."""
    path = tmp_path / "\x1b[31mred\u202e.toml"
    path.write_text(HOSTILE.split("\n", 1)[1], encoding="utf-8")  # without its own name
    code, out, err = cli(["report", str(path), "--format", "xlsx", "--out", str(tmp_path)])
    assert (code, err) == (0, "") and out.count("\n") == 1
    assert out.endswith("\\x1b[31mred\\u202e.xlsx: written\n") and "\x1b" not in out
    book = openpyxl.load_workbook(tmp_path / "\x1b[31mred\u202e.xlsx")
    assert book.properties.title == "\\x1b[31mred\\u202e — math sheet"


def test_same_inputs_same_bytes_and_the_date_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = build_sheets(["classic"], bet_ids=["tie", "player_pair"], date="2024-02-29")[0]
    first = render_xlsx(sheet)
    assert render_file(sheet, "xlsx") == first
    assert xlsx_date(first) == "2024-02-29"
    later = render_xlsx(sheet.with_date("2024-03-01"))
    assert later != first and xlsx_date(later) == "2024-03-01"
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert {i.date_time for i in archive.infolist()} == {(2024, 2, 29, 0, 0, 0)}
    props = workbook(first).properties
    assert props.created == props.modified and props.created.isoformat() == "2024-02-29T00:00:00"
    # SOURCE_DATE_EPOCH=0 is 1970, before zip's epoch: the entries say 1980, the properties 1970
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    (old,) = build_sheets(["classic"], bet_ids=["tie"])
    assert xlsx_date(render_xlsx(old)) == "1970-01-01"


def test_cli_writes_and_keeps_an_unchanged_workbook(tmp_path: Path, cli: Cli) -> None:
    argv = ["report", "classic", "--bet", "tie", "--format", "xlsx", "--out", str(tmp_path)]
    code, out, err = cli([*argv, "--date", "2024-01-01"])
    path = tmp_path / "classic.xlsx"
    assert (code, err, out) == (0, "", f"{path}: written\n")
    before = path.read_bytes()
    code, out, _ = cli(argv)  # another day, same figures: left as it is
    assert (code, out, path.read_bytes()) == (0, f"{path}: unchanged\n", before)
    path.write_bytes(b"PK\x03\x04 someone's workbook")  # not one exactodds wrote
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and "already exists (use --force to replace it)" in err
    code, out, _ = cli([*argv, "--force"])
    assert (code, out) == (0, f"{path}: written\n") and xlsx_date(path.read_bytes())


MISSING = {
    "pdf": ("weasyprint", "PDF sheets need WeasyPrint: pip install 'exactodds[pdf]'"),
    "xlsx": ("openpyxl", "XLSX sheets need openpyxl: pip install 'exactodds[xlsx]'"),
}


@pytest.mark.parametrize("fmt", MISSING)
def test_binary_format_without_its_extra(
    fmt: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cli: Cli
) -> None:
    module, message = MISSING[fmt]
    monkeypatch.setitem(sys.modules, module, None)  # importing it now fails
    code, out, err = cli(["report", "classic", "--format", fmt, "--out", str(tmp_path)])
    assert (code, out, err) == (2, "", f"exactodds: error: {message}\n")
    assert list(tmp_path.iterdir()) == []  # refused before any work
    (sheet,) = build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01")
    with pytest.raises(MissingExtraError) as raised:
        render_file(sheet, fmt)
    assert str(raised.value) == message


@pytest.mark.parametrize("fmt", ["pdf", "xlsx"])
def test_binary_formats_need_out(fmt: str, cli: Cli) -> None:
    code, out, err = cli(["report", "classic", "--format", fmt])
    assert (code, out) == (2, "")
    assert err.endswith(f"--format {fmt} writes binary files, one per sheet: give --out DIR\n")
