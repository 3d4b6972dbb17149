"""Sphinx configuration of the exactodds documentation: Markdown pages (MyST), the API
reference from the docstrings (autodoc) and the limits table generated from
``exactodds/limits.py``. Build: ``sphinx-build -W docs docs/_build`` (warnings are errors)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "exactodds"
author = "exactodds"
copyright = "exactodds authors"
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "exactodds_limits",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
html_theme = "furo"
html_title = "exactodds"
html_static_path = ["_static"]
html_css_files = ["exactodds.css"]
# Links between pages are written as Markdown links to the .md files (they work on GitHub too);
# links to files outside docs/ (examples/, paytables/) are left as they are.
suppress_warnings: list[str] = []
nitpicky = False
