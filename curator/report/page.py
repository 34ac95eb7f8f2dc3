"""The report page: every section in one self-contained HTML file.

No script, no external stylesheet, font or image: the styles are inline and the charts
are inline SVG. A Content-Security-Policy forbids the page any network access, so a
browser that opens it fetches nothing. Same inputs, same bytes: nothing reads the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from curator import __version__, atomic, palette
from curator.report.comparison import runs
from curator.report.failures import failures
from curator.report.inputs import ReportInputs, read_inputs
from curator.report.overview import composition, summary
from curator.report.scores import accuracy, calibration, faithfulness

# (anchor, title, section builder), in page order
SECTIONS = (
    ("summary", "Summary", summary),
    ("composition", "Composition", composition),
    ("accuracy", "Accuracy", accuracy),
    ("calibration", "Calibration", calibration),
    ("faithfulness", "Faithfulness", faithfulness),
    ("runs", "Run comparison", runs),
    ("failures", "Failing fixtures", failures),
)

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

STYLE = f"""
:root {{ color-scheme: light; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0 auto; max-width: 1180px; padding: 0 24px 48px; color: #1a1a1a; background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }}
h1 {{ font-size: 1.6rem; margin: 24px 0 4px; }}
h2 {{ font-size: 1.3rem; margin: 36px 0 12px; padding-top: 12px; border-top: 2px solid #ddd; }}
h3 {{ font-size: 1.05rem; margin: 20px 0 8px; }}
nav ul {{ display: flex; flex-wrap: wrap; gap: 4px 18px; list-style: none; padding: 0; \
margin: 8px 0 0; }}
a {{ color: {palette.BLUE}; }}
table {{ border-collapse: collapse; width: 100%; margin: 12px 0; font-size: 14px; }}
caption {{ text-align: left; font-weight: 600; padding-bottom: 4px; }}
th, td {{ border-bottom: 1px solid #e3e3e3; padding: 4px 8px; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }}
td.free, td code {{ overflow-wrap: anywhere; }}
th {{ background: #f4f4f4; }}
td.num, th.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.pair {{ display: flex; flex-wrap: wrap; gap: 0 24px; }}
.pair table {{ width: auto; min-width: 260px; }}
figure {{ margin: 16px 0; }}
figcaption {{ font-size: 14px; color: #333; }}
svg.chart {{ display: block; max-width: 100%; height: auto; }}
svg text {{ font-size: 12px; fill: #1a1a1a; font-family: system-ui, -apple-system, \
"Segoe UI", Roboto,
  "DejaVu Sans", sans-serif; }}
svg .grid {{ stroke: #e3e3e3; stroke-width: 1; }}
svg .axis {{ stroke: #333; stroke-width: 1; }}
svg .frame {{ fill: none; stroke: #333; stroke-width: 1; }}
svg .marker {{ stroke: {palette.BLACK}; stroke-width: 2.5; }}
svg .diagonal {{ stroke: #666; stroke-width: 1.5; stroke-dasharray: 6 4; }}
svg .edge {{ stroke: {palette.BLACK}; stroke-width: 0.6; }}
svg .axis-title {{ font-weight: 600; }}
ul.legend {{ list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; \
gap: 4px 18px; }}
ul.legend li {{ display: flex; align-items: center; gap: 6px; }}
.swatch {{ display: inline-block; width: 14px; height: 14px; border: 1px solid #333; }}
.swatch.dot {{ border-radius: 50%; }}
.swatch.dashed {{ border: none; border-top: 2px dashed #666; height: 0; width: 22px; }}
.swatch.marker {{ border: none; background: {palette.BLACK}; width: 3px; height: 16px; }}
.status {{ font-weight: 700; }}
.status.pass {{ color: {palette.BLUISH_GREEN}; }}
.status.fail {{ color: {palette.VERMILLION}; }}
.status.skip {{ color: #666; }}
details.failure {{ border: 1px solid #ddd; border-radius: 4px; padding: 6px 10px; margin: 8px 0; }}
details.failure summary {{ cursor: pointer; overflow-wrap: anywhere; }}
pre.excerpt {{ white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f7f7; \
padding: 8px 10px;
  margin: 8px 0; font-size: 13px; }}
mark {{ background: {palette.YELLOW}; }}
code {{ overflow-wrap: anywhere; }}
footer {{ margin-top: 40px; font-size: 13px; color: #555; }}
"""


def render(inputs: ReportInputs) -> str:
    version = inputs.manifest.bundle_version
    nav = "".join(
        f'<li><a href="#{anchor}">{escape(title)}</a></li>' for anchor, title, _ in SECTIONS
    )
    body = "".join(build(inputs) for _, _, build in SECTIONS)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>curator report: bundle {escape(version)}</title><style>{STYLE}</style></head>"
        f"<body><header><h1>curator report: bundle {escape(version)}</h1>"
        f"<nav><ul>{nav}</ul></nav></header>"
        f"<main>{body}</main>"
        f"<footer>Made by curator {escape(__version__)} from the bundle's manifest and fixtures"
        f"{', a gate report' if inputs.gate else ''}{' and eval runs' if inputs.runs else ''}. "
        "Colours: Okabe-Ito, readable with colour-vision deficiencies; every colour also has a "
        "label.</footer>"
        "</body></html>\n"
    )


@dataclass(frozen=True)
class ReportWritten:
    path: Path
    exit_code = 0

    def render(self) -> str:
        return f"wrote {self.path}"

    def as_json(self) -> dict:
        return {"report": str(self.path)}


def write_report(
    bundle: Path,
    out: Path,
    *,
    gate: Path | None = None,
    runs: Sequence[Path] = (),
    names: Sequence[str] = (),
) -> ReportWritten:
    """Read the bundle (directory or .tar.gz), gate report.json and eval runs (evals.jsonl
    files or their folders, the first ones named by `names`); write one HTML page."""
    atomic.write_text(
        out, render(read_inputs(bundle, gate, runs, names)), mode=0o644
    )  # a page for people to open
    return ReportWritten(out)
