"""Self-contained HTML rendering of a math sheet: inline CSS and script, prints on A4/Letter.

A math sheet is also a paytable designer (:mod:`exactodds.report.designer`): every payout is an
input, and the page's one inline script recomputes the bet's figures exactly when it is edited,
resets the payouts and exports the edited paytable as TOML. Without the script the page is the
static sheet (the inputs hold the printed payouts; the designer's controls stay hidden). A
Content-Security-Policy allows nothing but the page's own style and script, by their SHA-256,
so the page loads nothing from anywhere and works from ``file://``.

The print style is the PDF's (:mod:`exactodds.report.pdf` prints this page with WeasyPrint): the
inputs print as text, the designer's controls not at all; a page break before the bets section,
each bet and the appendix (long tables may break between rows, so no heading is left alone),
and in the page margins — where the renderer supports CSS margin boxes and running strings, as
WeasyPrint does — the title, the date, the paytable's SHA-256 and "Page n of N" on every page.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from exactodds.report.content import document
from exactodds.report.designer import DATA_ID, Designer, designer_model, script
from exactodds.report.document import (
    Chart,
    Code,
    Document,
    Field,
    Heading,
    Inline,
    Para,
    PayoutField,
    Strong,
    Table,
)
from exactodds.report.markdown import MARKER
from exactodds.report.sheet import Sheet

__all__ = ["CSS", "content_security_policy", "render_html", "render_sheet_html"]

CSS = """
:root { --ink: #1b1f24; --muted: #57606a; --rule: #d0d7de; --band: #f6f8fa; --flag: #b35900; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       max-width: 72rem; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.7rem; border-bottom: 2px solid var(--ink); padding-bottom: .3rem; }
h2 { font-size: 1.3rem; margin-top: 2.2rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--rule); padding: .2rem .55rem; vertical-align: top; }
th { background: var(--band); text-align: left; }
td.r { text-align: right; white-space: nowrap; } td.c { text-align: center; }
tr.total td { font-weight: 600; border-top: 2px solid var(--ink); }
caption { caption-side: bottom; text-align: left; color: var(--muted); font-size: .85rem;
          padding-top: .25rem; }
table.tableau td.c { width: 2.6rem; }
td.D { background: #dbeafe; } td.N { color: var(--muted); }
table.exact td, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
                       font-size: .85em; word-break: break-all; }
td code { word-break: normal; overflow-wrap: anywhere; }
figure.chart { margin: .4rem 0 1rem; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figure.chart figcaption { color: var(--muted); font-size: .85rem; }
figure.chart.stale svg { opacity: .35; }
span.stale { color: #57606a; }
p.flag { border-left: 4px solid var(--flag); padding: .3rem .7rem; background: #fff4e5; }
nav ol { columns: 2; font-size: .9rem; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; }
input.pays { font: inherit; font-variant-numeric: tabular-nums; max-width: 100%;
             box-sizing: border-box; padding: 0 .25rem; border: 1px solid var(--rule);
             border-radius: 3px; background: #fff; color: inherit; }
input.pays.edited { background: #fff8c5; border-color: #9a6700; }
input.pays[aria-invalid="true"] { background: #ffebe9; border-color: #cf222e; }
.print-only { display: none; }
section.designer { border: 1px solid var(--rule); border-radius: 6px; padding: 0 1rem .8rem;
                   margin: 1rem 0; background: var(--band); }
section.designer h2 { margin-top: .8rem; }
section.designer textarea { width: 100%; box-sizing: border-box; font: .8rem/1.4 ui-monospace,
                            SFMono-Regular, Menlo, monospace; }
section.designer ul { padding-left: 1.2rem; }
button { font: inherit; padding: .15rem .7rem; }
.designer-bet { font-size: .9rem; color: var(--muted); }
.designer-bet .error { color: #cf222e; }
@media print {
  @page {
    size: A4; margin: 16mm 14mm;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    @top-left { content: string(sheet-title); font-size: 7.5pt; color: #57606a; }
    @top-right { content: string(sheet-date); font-size: 7.5pt; color: #57606a; }
    @bottom-left { content: string(sheet-source); font-size: 6.5pt; color: #57606a;
                   font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
    @bottom-right { content: "Page " counter(page) " of " counter(pages); font-size: 7.5pt;
                    color: #57606a; }
  }
  body { font-size: 9.5pt; max-width: none; margin: 0; padding: 0;
         string-set: sheet-title attr(data-title), sheet-date attr(data-date),
                     sheet-source attr(data-source); }
  nav { display: none; }
  h2#bets, h2#appendix, h3[id^="bet-"] { break-before: page; }
  h2#bets + p + h3 { break-before: auto; }
  h2, h3 { break-after: avoid; }
  table { font-size: 8pt; max-width: 100%; }
  th, td { padding: .15rem .35rem; }
  td code { white-space: normal; overflow-wrap: anywhere; }
  tr, p.flag, caption, figure.chart { break-inside: avoid; }
  figure.chart svg { max-width: 70%; }
  caption { break-before: avoid; }
  thead { display: table-header-group; }
  td.D { background: none; font-weight: 700; }
  a { color: inherit; text-decoration: none; }
  input.pays, section.designer, .designer-bet, button { display: none; }
  .print-only { display: inline; }
}
""".strip()


def _inline(x: Inline) -> str:
    if isinstance(x, tuple):
        return "".join(_inline(part) for part in x)
    if isinstance(x, Code):
        return f"<code>{escape(x.text)}</code>"
    if isinstance(x, Strong):
        return f"<strong>{escape(x.text)}</strong>"
    if isinstance(x, Field):
        bet = "" if x.bet is None else f' data-bet="{escape(x.bet)}"'
        row = "" if x.row is None else f' data-row="{x.row}"'
        form = f' data-form="{escape(x.form)}"' if x.form else ""
        return f'<span{bet} data-figure="{escape(x.figure)}"{row}{form}>{_inline(x.content)}</span>'
    if isinstance(x, PayoutField):
        text = escape(x.text)
        size = min(max(len(x.text) + 1, 6), 24)
        return (
            f'<input class="pays" type="text" data-bet="{escape(x.bet)}" data-row="{x.row}" '
            f'value="{text}" size="{size}" aria-label="{escape(x.label)}" autocomplete="off" '
            f'spellcheck="false"><span class="print-only">{text}</span>'
        )
    return escape(x)


def _table(t: Table) -> list[str]:
    cls = f' class="{t.css}"' if t.css else ""
    out = [f"<table{cls}>"]
    if t.caption:
        out.append(f"<caption>{_inline(t.caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in t.header) + "</tr></thead>")
    out.append("<tbody>")

    def cell(a: str, c: Inline) -> str:
        classes = [a] if a != "l" else []
        if t.css == "tableau" and isinstance(c, str) and c in ("D", "N"):
            classes.append(c)
        attr = f' class="{" ".join(classes)}"' if classes else ""
        return f"<td{attr}>{_inline(c)}</td>"

    for row in t.rows:
        out.append(
            "<tr>" + "".join(cell(a, c) for a, c in zip(t.align, row, strict=True)) + "</tr>"
        )
    if t.total is not None:
        cells = "".join(cell(a, c) for a, c in zip(t.align, t.total, strict=True))
        out.append(f'<tr class="total">{cells}</tr>')
    out.append("</tbody></table>")
    return out


def _sha256(text: str) -> str:
    """A CSP source allowing exactly this inline style or script."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


_STYLE = f"\n{CSS}\n"


def _chart(chart: Chart) -> str:
    """A chart as a figure: the inline SVG, and its data as the caption (its text alternative
    for every reader, and the SVG's own title and description for screen readers)."""
    from exactodds.report.charts import bar_chart_svg, bars_text

    svg = bar_chart_svg(chart.title, chart.bars, chart.places)
    caption = f"{escape(chart.title)}: {escape(bars_text(chart.bars, chart.places))}"
    key = f' data-chart="{escape(chart.key)}"' if chart.key else ""
    return f'<figure class="chart"{key}>{svg}<figcaption>{caption}</figcaption></figure>'


def content_security_policy(script_text: str | None) -> str:
    """The page's policy: nothing at all but its own style and, if any, its own script.

    >>> content_security_policy(None).startswith("default-src 'none'; style-src 'sha256-")
    True
    """
    scripts = "" if script_text is None else f"script-src {_sha256(script_text)}; "
    return (
        f"default-src 'none'; {scripts}style-src {_sha256(_STYLE)}; base-uri 'none'; "
        "form-action 'none'"
    )


def _json_script(data: str) -> str:
    """JSON text safe inside a ``<script>`` data block: no ``<``, ``>`` or ``&`` (they occur
    only inside strings, where their escapes mean the same)."""
    return data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _designer_panel(designer: Designer) -> list[str]:
    """The designer's controls (shown by the script; hidden without it and in print)."""
    notes = "".join(f"<li>{escape(note)}</li>" for note in designer.notes)
    return [
        '<section id="designer" class="designer" hidden aria-labelledby="designer-heading">',
        '<h2 id="designer-heading">Paytable designer</h2>',
        "<p>Every payout in a bet's return table (column Pays) can be edited, in any notation a "
        "paytable file accepts (11:1, 0.95:1, 8 to 1, 9 for 1, 1:1 less 5%, 19/20:1, push, "
        "lose). The bet's figures on this page — summary, paytable, return table, worked "
        "examples, figures, RTP ranges, RTP by stake and appendix — are then recomputed exactly "
        "from this sheet's combinations and rounded as printed. Compliance checks and a Monte "
        "Carlo verification, where the sheet has them, stay as printed.</p>",
        '<p><button type="button" data-action="reset">Reset all payouts</button> '
        '<button type="button" data-action="export">Export paytable (TOML)</button> '
        '<a data-download hidden href="#designer">Download</a></p>',
        '<p data-export-status role="status"></p>',
        f'<ul class="note">{notes}</ul>',
        '<textarea data-export rows="16" readonly hidden spellcheck="false" '
        'aria-label="Exported paytable (TOML)"></textarea>',
        "</section>",
    ]


def render_sheet_html(sheet: Sheet, *, designer: bool = True) -> str:
    """The math sheet as one self-contained HTML page: its document
    (:func:`~exactodds.report.content.document`) and, with ``designer``, the data and script
    that make it a paytable designer (:mod:`exactodds.report.designer`; a printed page runs no
    script, so the PDF's HTML has none).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> page = render_sheet_html(build_sheet(load_paytable("tie-9"), date="2024-01-01"))
    >>> '<input class="pays" type="text" data-bet="tie" data-row="0" value="9:1"' in page
    True
    >>> '<span data-bet="tie" data-figure="house_edge">4.8440%</span>' in page
    True
    """
    return render_html(document(sheet), designer_model(sheet) if designer else None)


def render_html(doc: Document, designer: Designer | None = None) -> str:
    """The document as one self-contained HTML page (ends with a newline); with ``designer``
    (a math sheet's), also the paytable designer's controls, data and script.

    >>> page = render_html(Document("Sheet", (Heading(2, "Bets", "bets"),), "2024-01-01", "9.9"))
    >>> '<h2 id="bets">Bets</h2>' in page, "<script" in page
    (True, False)
    """
    title = escape(doc.title)
    code = None if designer is None else script()
    csp = content_security_policy(code)
    nav = [
        f'<li><a href="#{escape(b.anchor)}">{escape(b.text)}</a></li>'
        for b in doc.blocks
        if isinstance(b, Heading) and b.level == 2
    ]
    out = [
        "<!DOCTYPE html>",
        f"<!-- {MARKER}: generated by exactodds {escape(doc.version)} ({escape(doc.command)}); "
        f"date={escape(doc.date)}; do not edit -->",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="exactodds {escape(doc.version)}">',
        f'<meta name="date" content="{escape(doc.date)}">',
        f'<meta name="dcterms.created" content="{escape(doc.date)}">',
        f'<meta name="dcterms.modified" content="{escape(doc.date)}">',
        f"<title>{title}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        f'<body data-title="{title}" data-date="{escape(doc.date)} · exactodds '
        f'{escape(doc.version)}" data-source="{escape(doc.source)}">',
        f"<h1>{title}</h1>",
        "<nav><ol>",
        *nav,
        "</ol></nav>",
    ]
    # the designer's controls go before the first section (after the table of facts)
    panel = next((i for i, b in enumerate(doc.blocks) if isinstance(b, Heading)), len(doc.blocks))
    for i, block in enumerate(doc.blocks):
        if designer is not None and i == panel:
            out += _designer_panel(designer)
        if isinstance(block, Heading):
            tag = f"h{block.level}"
            out.append(f'<{tag} id="{escape(block.anchor)}">{escape(block.text)}</{tag}>')
        elif isinstance(block, Para):
            cls = f' class="{block.style}"' if block.style else ""
            out.append(f"<p{cls}>{_inline(block.text)}</p>")
        elif isinstance(block, Chart):
            out.append(_chart(block))
        else:
            out += _table(block)
    if designer is not None and panel == len(doc.blocks):
        out += _designer_panel(designer)
    # only a document that has an appendix points to it (the comparison page has none)
    has_appendix = any(isinstance(b, Heading) and b.anchor == "appendix" for b in doc.blocks)
    where = "see the appendix" if has_appendix else "exact fractions with --format json"
    out += [
        f"<footer>Generated by exactodds {escape(doc.version)} on {escape(doc.date)}; every "
        f"figure is exact ({where}).</footer>",
    ]
    if designer is not None and code is not None:
        if "</script" in code.lower():
            raise AssertionError("designer.js must not contain '</script'")
        out += [
            f'<script type="application/json" id="{DATA_ID}">'
            f"{_json_script(designer.data)}</script>",
            f"<script>{code}</script>",
        ]
    out += [
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"
