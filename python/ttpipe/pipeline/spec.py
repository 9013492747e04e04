"""Pipeline strings: `pass-a,pass-b{opt=v other=w}`, optionally inside `builtin.module(...)`.

Parsing is xDSL's (`xdsl.utils.arg_spec.parse_pipeline`); this module checks names and
options against the registry, converts option values to the options' types, and expands
named pipelines (`kind == "pipeline"`) in place into the passes they stand for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from ttpipe.pipeline.registry import PassInvocation, PipelineError, all_passes, value_text

__all__ = ["PassInvocation", "PipelineError", "expand", "invocation", "parse"]

_ANCHOR = re.compile(r"^\s*(?:builtin\.module|any)\((.*)\)\s*$", re.S)
_OPTION_VALUE = re.compile(r'(?<=[{\s])([\w-]+=)([^\s{}"]+)')
_BARE = re.compile(r"[\w.+-]*")


def parse(text: str, pipeline_defaults: dict[str, Any] | None = None) -> list[PassInvocation]:
    """The passes of a pipeline string, named pipelines expanded. `pipeline_defaults` (e.g.
    `{"num-warps": 8}`) fill each named pipeline's options that the text does not give."""
    inner = text
    while (m := _ANCHOR.match(inner)) is not None:
        inner = m.group(1)
    if not inner.strip():
        return []
    try:
        specs = list(parse_pipeline(_quote_values(inner)))
    except ArgSpecParseError as exc:
        raise PipelineError(f"malformed pass pipeline '{text}': {str(exc).splitlines()[-1].strip()}") from None
    return expand(invocation(spec.name, _with_defaults(spec.name, dict(spec.parameters), pipeline_defaults or {}))
                  for spec in specs)


def _with_defaults(name: str, raw: dict[str, tuple], defaults: dict[str, Any]) -> dict[str, tuple]:
    info = all_passes().get(name)
    if info is not None and info.kind == "pipeline":
        for key, value in defaults.items():
            if key not in raw and info.option(key) is not None:
                raw[key] = (value,)
    return raw


def _quote_values(text: str) -> str:
    """Quote option values xDSL's lexer would split (`target=cuda:90`), as MLIR reads them whole."""
    def quote(m: re.Match[str]) -> str:
        items = m.group(2).split(",")
        return m.group(1) + ",".join(item if _BARE.fullmatch(item) else f'"{item}"' for item in items)

    return _OPTION_VALUE.sub(quote, text)


def expand(invocations: Iterable[PassInvocation]) -> list[PassInvocation]:
    """The invocations with each pipeline replaced by the passes it stands for."""
    expanded: list[PassInvocation] = []
    for item in invocations:
        if item.info.kind == "pipeline":
            expanded.extend(expand(item.info.create(item.options)))
        else:
            expanded.append(item)
    return expanded


def invocation(name: str, raw: dict[str, tuple]) -> PassInvocation:
    info = all_passes().get(name)
    if info is None:
        raise PipelineError(f"unknown pass '{name}' (ttpipe-opt --list-passes lists them)")
    options: dict[str, Any] = {}
    for key, values in raw.items():
        option = info.option(key)
        if option is None:
            known = ", ".join(o.name for o in info.options) or "none"
            raise PipelineError(f"pass '{name}' has no option '{key}' (options: {known})")
        options[key] = _convert(name, option.name, option.type, values)
        if option.check is not None and (why := option.check(options[key])) is not None:
            raise PipelineError(f"option '{key}' of pass '{name}' {why}, not '{value_text(options[key])}'")
    return PassInvocation(info, options)


def _convert(pass_name: str, key: str, type_: Any, values: tuple) -> Any:
    where = f"option '{key}' of pass '{pass_name}'"
    if type_ in (list[int], tuple[int, ...]):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise PipelineError(f"{where} takes integers")
        return tuple(values)
    if len(values) != 1:
        raise PipelineError(f"{where} takes one value")
    value = values[0]
    if type_ is bool:
        if isinstance(value, bool):
            return value
        if value in ("1", "0", 1, 0):
            return bool(int(value))
        raise PipelineError(f"{where} takes true or false, not '{value}'")
    if type_ is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise PipelineError(f"{where} takes an integer, not '{value}'")
    if type_ is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise PipelineError(f"{where} takes a number, not '{value}'")
    if type_ is str:
        return value_text(value)  # a word the parser read as a boolean is spelled back: true
    raise PipelineError(f"{where} has an unsupported type")
