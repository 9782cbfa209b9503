"""JUnit XML of a balance run, for CI systems that show test results (GitHub, GitLab, Jenkins).

Each check is a test case: a failing check is a ``<failure>``, an inconclusive one is
``<skipped>`` with the reason, so a dashboard shows it without counting it as broken.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from deckkit.balance.atomic import write_text_atomic

if TYPE_CHECKING:  # the checks (and numpy) are loaded only when checks run
    from deckkit.balance.checks import CheckResult


# What XML 1.0 cannot hold at all, even escaped: control characters other than tab, newline and
# carriage return, lone surrogates, U+FFFE and U+FFFF (a check name comes from a user's file).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML cannot hold written as a visible escape
    (``\\x1b``), so the file stays well-formed and the name recognisable."""
    return _NOT_XML.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _summary(result: CheckResult) -> str:
    est = "-" if result.estimate is None else f"{result.estimate:+.4f}"
    ci = "" if result.ci is None else f" (95% CI {result.ci[0]:+.4f} to {result.ci[1]:+.4f})"
    if result.check.kind == "band":
        est = "-" if result.estimate is None else f"{result.estimate:.4f}"
        ci = "" if result.ci is None else f" (95% CI {result.ci[0]:.4f} to {result.ci[1]:.4f})"
    lines = [
        f"deck {result.check.deck_as_written}, seed {result.check.seed}, "
        f"policy {result.check.policy}",
        f"{result.reason}",
        f"estimate {est}{ci}; LLR {result.llr:.3f} in ({result.bounds[0]:.3f}, "
        f"{result.bounds[1]:.3f})",
    ]
    if result.changed_cards:
        lines.append(f"cards changed since the baseline: {', '.join(result.changed_cards)}")
    return "\n".join(lines)


def junit_xml(results: Sequence[CheckResult], suite: str) -> str:
    """The XML document (UTF-8, with declaration)."""
    failures = sum(r.verdict == "fail" for r in results)
    skipped = sum(r.verdict == "inconclusive" for r in results)
    seconds = f"{sum(r.seconds for r in results):.3f}"
    counts = {"tests": str(len(results)), "failures": str(failures), "errors": "0"}
    root = ET.Element("testsuites", {"name": "deckkit balance", **counts, "time": seconds})
    node = ET.SubElement(
        root,
        "testsuite",
        {"name": xml_text(suite), **counts, "skipped": str(skipped), "time": seconds},
    )
    for r in results:
        case = ET.SubElement(
            node,
            "testcase",
            {
                "classname": f"balance.{r.check.kind}",
                "name": xml_text(r.check.name),
                "time": f"{r.seconds:.3f}",
            },
        )
        text, reason = xml_text(_summary(r)), xml_text(r.reason)
        if r.verdict == "fail":
            failure = ET.SubElement(case, "failure", {"message": reason, "type": "balance"})
            failure.text = text
        elif r.verdict == "inconclusive":
            ET.SubElement(case, "skipped", {"message": reason})
        out = ET.SubElement(case, "system-out")
        out.text = text
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_junit(path: Path, results: Sequence[CheckResult], suite: str) -> None:
    write_text_atomic(path, junit_xml(results, suite))
