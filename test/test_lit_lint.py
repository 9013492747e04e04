"""FileCheck directives in lit tests are spelled right (a misspelled one checks nothing)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).parent / "lit"
DIRECTIVE = re.compile(r"//\s*([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*)\s*:")
SUFFIXES = {"", "-NEXT", "-SAME", "-NOT", "-DAG", "-LABEL", "-EMPTY", "-COUNT"}


def _prefixes(text: str) -> set[str]:
    found = {"CHECK"}
    for m in re.finditer(r"--check-prefix(?:es)?[= ]([\w,-]+)", text):
        found.update(m.group(1).split(","))
    return found


def test_directives_are_known():
    bad = []
    for path in sorted(ROOT.rglob("*.mlir")):
        text = path.read_text()
        prefixes = _prefixes(text)
        for number, line in enumerate(text.splitlines(), 1):
            for m in DIRECTIVE.finditer(line):
                word = m.group(1)
                if word in ("RUN", "REQUIRES", "UNSUPPORTED", "XFAIL", "ALLOW_RETRIES"):
                    continue
                if not any(word == p + s or re.fullmatch(re.escape(p) + r"-COUNT-\d+", word)
                           for p in prefixes for s in SUFFIXES):
                    bad.append(f"{path.relative_to(ROOT)}:{number}: unknown directive '{word}'")
    assert not bad, "\n".join(bad)
