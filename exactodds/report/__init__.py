"""Math sheets: the exact figures of a paytable as Markdown, self-contained HTML, CSV, JSON, PDF
(extra ``pdf``) or XLSX (extra ``xlsx``).

>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> sheet = build_sheet(load_paytable(default_paytable()), date="2024-01-01", version="X")
>>> render_sheets([sheet], "md").splitlines()[2]
'# Classic (commission) — math sheet'
"""

from __future__ import annotations

from exactodds.report.generate import (
    BINARY_FORMATS,
    BUNDLED_AGAINST,
    COMPARISON_STEM,
    EXTENSIONS,
    FORMATS,
    ReportError,
    build_sheets,
    check_sheet_format,
    comparison_document,
    plan_comparison,
    plan_files,
    recorded_date,
    render_file,
    render_sheets,
)
from exactodds.report.io import write_all, write_atomic
from exactodds.report.sheet import (
    BetSheet,
    InputFile,
    Sheet,
    StakeRTP,
    build_sheet,
    file_input,
    resolve_date,
)

__all__ = [
    "BINARY_FORMATS",
    "BUNDLED_AGAINST",
    "COMPARISON_STEM",
    "EXTENSIONS",
    "FORMATS",
    "BetSheet",
    "InputFile",
    "ReportError",
    "Sheet",
    "StakeRTP",
    "build_sheet",
    "build_sheets",
    "check_sheet_format",
    "comparison_document",
    "file_input",
    "plan_comparison",
    "plan_files",
    "recorded_date",
    "render_file",
    "render_sheets",
    "resolve_date",
    "write_all",
    "write_atomic",
]
