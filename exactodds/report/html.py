"""Self-contained HTML rendering of a math sheet: inline CSS, no scripts, prints on A4/Letter.

The print style is the PDF's (:mod:`exactodds.report.pdf` prints this page with WeasyPrint): a
page break before the paytable, the bets section, each bet and the appendix, and in the page
margins — where the renderer supports CSS margin boxes and running strings, as WeasyPrint does —
the title, the date, the paytable's SHA-256 and "Page n of N" on every page.
"""

from __future__ import annotations

from html import escape

from exactodds.report.layout import Code, Document, Heading, Inline, Para, Strong, Table
from exactodds.report.markdown import MARKER

__all__ = ["CSS", "render_html"]

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
td code { word-break: normal; white-space: nowrap; }
p.flag { border-left: 4px solid var(--flag); padding: .3rem .7rem; background: #fff4e5; }
nav ol { columns: 2; font-size: .9rem; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; }
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
  h2#paytable, h2#bets, h2#appendix, h3[id^="bet-"] { break-before: page; }
  h2#bets + p + h3 { break-before: auto; }
  h2, h3 { break-after: avoid; }
  table { font-size: 8pt; max-width: 100%; }
  th, td { padding: .15rem .35rem; }
  td code { white-space: normal; overflow-wrap: anywhere; }
  table, tr, p.flag, caption { break-inside: avoid; }
  caption { break-before: avoid; }
  thead { display: table-header-group; }
  td.D { background: none; font-weight: 700; }
  a { color: inherit; text-decoration: none; }
}
""".strip()


def _inline(x: Inline) -> str:
    if isinstance(x, tuple):
        return "".join(_inline(part) for part in x)
    if isinstance(x, Code):
        return f"<code>{escape(x.text)}</code>"
    if isinstance(x, Strong):
        return f"<strong>{escape(x.text)}</strong>"
    return escape(x)


def _table(t: Table) -> list[str]:
    cls = f' class="{t.css}"' if t.css else ""
    out = [f"<table{cls}>"]
    if t.caption:
        out.append(f"<caption>{escape(t.caption)}</caption>")
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


def render_html(doc: Document) -> str:
    """The document as one self-contained HTML page (ends with a newline)."""
    title = escape(doc.title)
    nav = [
        f'<li><a href="#{escape(b.anchor)}">{escape(b.text)}</a></li>'
        for b in doc.blocks
        if isinstance(b, Heading) and b.level == 2
    ]
    out = [
        "<!DOCTYPE html>",
        f"<!-- {MARKER}: generated by exactodds {escape(doc.version)} (exactodds report); "
        f"date={escape(doc.date)}; do not edit -->",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="exactodds {escape(doc.version)}">',
        f'<meta name="date" content="{escape(doc.date)}">',
        f'<meta name="dcterms.created" content="{escape(doc.date)}">',
        f'<meta name="dcterms.modified" content="{escape(doc.date)}">',
        f"<title>{title}</title>",
        f"<style>\n{CSS}\n</style>",
        "</head>",
        f'<body data-title="{title}" data-date="{escape(doc.date)} · exactodds '
        f'{escape(doc.version)}" data-source="{escape(doc.source)}">',
        f"<h1>{title}</h1>",
        "<nav><ol>",
        *nav,
        "</ol></nav>",
    ]
    for block in doc.blocks:
        if isinstance(block, Heading):
            tag = f"h{block.level}"
            out.append(f'<{tag} id="{escape(block.anchor)}">{escape(block.text)}</{tag}>')
        elif isinstance(block, Para):
            cls = f' class="{block.style}"' if block.style else ""
            out.append(f"<p{cls}>{_inline(block.text)}</p>")
        else:
            out += _table(block)
    out += [
        f"<footer>Generated by exactodds {escape(doc.version)} on {escape(doc.date)}; every "
        "figure is exact (see the appendix).</footer>",
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"
