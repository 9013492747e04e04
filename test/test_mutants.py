"""Mutants of corpus files (truncated, lines dropped or duplicated, tokens swapped, numbers
and names corrupted) never produce a Python traceback or a hang: each one either reads,
verifies and prints, or is rejected with a `FILE:LINE:COL: error:` diagnostic."""

import pathlib
import random
import re
import signal

import pytest

from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.textio.verify import verify

CORPUS = pathlib.Path(__file__).parent / "corpus"
MUTANTS_PER_FILE = 100
SECONDS_PER_MUTANT = 10
TOKEN = re.compile(r"%[\w.#-]+|#[\w.]+|![\w.]+|\"[^\"\n]*\"|\d+|[A-Za-z_][\w.]*|->|\S")


def _sample_files() -> list[pathlib.Path]:
    """A TTIR, a Hopper TTGIR and a Blackwell TTGIR (TMEM, tcgen05), the smallest of each."""
    picks = []
    for pattern in ("sm90a/*/final-ttir.mlir", "sm90a/*/final-ttgir.mlir", "sm100a/*/final-ttgir.mlir"):
        files = sorted(CORPUS.glob(pattern), key=lambda p: p.stat().st_size)
        if pattern.startswith("sm100a"):
            files = [f for f in files if "tmem_alloc" in f.read_text()] or files
        if files:
            picks.append(files[len(files) // 3])
    return picks


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(9)
    if kind == 0:
        return text[: rng.randrange(len(text))]
    if kind == 1:
        del lines[rng.randrange(len(lines))]
    elif kind == 2:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 3:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind in (4, 5, 6, 7):
        i = rng.randrange(len(lines))
        tokens = list(TOKEN.finditer(lines[i]))
        if len(tokens) >= 2:
            line = lines[i]
            a, b = sorted(rng.sample(tokens, 2), key=lambda m: m.start())
            if kind == 4:  # swap two tokens
                line = line[: a.start()] + b.group() + line[a.end(): b.start()] + a.group() + line[b.end():]
            elif kind == 5:  # corrupt a number
                numbers = [t for t in tokens if t.group().isdigit()] or [a]
                t = rng.choice(numbers)
                line = line[: t.start()] + rng.choice(["0", "-1", "3", "99999999999999999999", "7x"]) + line[t.end():]
            elif kind == 6:  # corrupt a name or type
                t = rng.choice(tokens)
                word = t.group()
                k = rng.randrange(len(word))
                line = line[: t.start()] + word[:k] + rng.choice("xq_9<>{}(),:=%#!") + word[k + 1:] + line[t.end():]
            else:  # drop a token
                t = rng.choice(tokens)
                line = line[: t.start()] + line[t.end():]
            lines[i] = line
    else:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["{", "}", "<", ">", "(", ")", "loc(", "\"", "//", "^bb9:"]) + text[i:]
    return "\n".join(lines)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: f"{p.parent.parent.name}-{p.parent.name}-{p.name}")
def test_mutants_fail_cleanly(path: pathlib.Path):
    text = path.read_text()
    rng = random.Random(f"{path.parent.name}/{path.name}")
    previous = signal.signal(signal.SIGALRM, _alarm)
    rejected = 0
    try:
        for index in range(MUTANTS_PER_FILE):
            mutant = _mutate(text, rng)
            signal.alarm(SECONDS_PER_MUTANT)
            try:
                parsed = parse_module(mutant, "mutant.mlir")
                verify(parsed.module, parsed.source, parsed.op_offsets)
                print_module(parsed.module)
            except DiagnosticError as exc:
                rejected += 1
                rendered = exc.render()
                assert "error:" in rendered.splitlines()[0], rendered
            except _Timeout:
                pytest.fail(f"mutant {index} of {path} hung")
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert rejected > MUTANTS_PER_FILE // 4  # the mutations do break the text
