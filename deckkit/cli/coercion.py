"""Command-line values made into their parameters' types without pydantic where the result is
certain.

typer (0.29) turns every parameter's value into its annotated type through a pydantic
TypeAdapter built for that parameter: loading pydantic's validation machinery and building the
adapters was about a third of a short command's start (`deckkit validate` of the demo deck:
pydantic and typer's adapters 150-170 ms and 10 adapters 30 ms of 540 ms, on a 2-core machine).
For the values deckkit's commands take in their plain spelling (a text, a path written as
Python writes it back, a whole number in plain digits within the option's bounds, a choice
named as typer would match it) the value here is the one typer's adapter gives. Everything
else (a value that would be refused, a sign, spaces, a parser of the command's own) goes to
typer's adapter itself, built then, which gives the value or the message it always gave.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import _click
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer._param_types import choice_coercion_annotation, coerce_cli_choice, coerce_cli_path
from typer.core import _TyperParameter

# Plain decimal digits without a leading zero, short enough to be an exact machine integer:
# pydantic reads them as int() does. Anything else ("+5", " 5", "1_000", "05") is left to it.
_PLAIN_INT = re.compile(r"0|[1-9][0-9]{0,17}")


class _Unsure:
    """The quick reading does not know the value typer's adapter would give."""


UNSURE = _Unsure()


def quick_value(
    annotation: Any, descriptor: TypeDescriptor, value: Any, param: Any, ctx: Any
) -> Any:
    """`value` as typer's adapter for `annotation` makes it, or UNSURE. Path checks (exists,
    a file or a directory, readable) are typer's own (coerce_cli_path), as are choices
    (coerce_cli_choice): only the pydantic steps around them are skipped."""
    info = descriptor.parameter_info
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        if not isinstance(value, (list, tuple)):
            return UNSURE
        items = [quick_value(item, descriptor, v, param, ctx) for v in value]
        return UNSURE if any(v is UNSURE for v in items) else items
    if get_origin(annotation) is not None:
        return UNSURE
    choice = choice_coercion_annotation(annotation, info)
    if choice is not None:  # a choice given, or the default member itself
        try:
            return coerce_cli_choice(value, choices=choice[0], case_sensitive=choice[1], ctx=ctx)
        except ValueError:
            return UNSURE
    if annotation is str:
        return value if isinstance(value, str) else UNSURE
    if annotation is bool:
        return value if isinstance(value, bool) else UNSURE
    if annotation is int and not info.clamp:
        if isinstance(value, str) and _PLAIN_INT.fullmatch(value):
            value = int(value)
        if type(value) is not int:  # bool is an int too; pydantic's int refuses it
            return UNSURE
        if (info.min is None or value >= info.min) and (info.max is None or value <= info.max):
            return value
        return UNSURE
    if annotation is float and info.min is None and info.max is None and not info.clamp:
        return value if type(value) is float and value == value else UNSURE  # not NaN
    if annotation is Path and info.path_type is None:
        if isinstance(value, str):
            path = Path(value)
            if str(path) != value:  # typer's messages quote the text as given
                return UNSURE
            value = path
        if not isinstance(value, Path):
            return UNSURE
        return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
    return UNSURE


@dataclass(frozen=True)
class QuickParam(RuntimeParam):
    """A parameter's coercion: the quick reading, else typer's own (built when first needed)."""

    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: Any, ctx: _click.Context) -> Any:
        quick = quick_value(self.annotation, self.descriptor, value, param, ctx)
        if quick is not UNSURE:
            return quick
        typer_own = build_runtime_param(self.descriptor)
        return typer_own._coerce_value(value, param=param, ctx=ctx)


def use_quick_values(param: _TyperParameter) -> None:
    """Give one of typer's parameters the quick coercion, in the attribute typer fills lazily
    with its own (a parameter with a parser of its own, or that opens files, keeps typer's)."""
    if param._runtime_param is not None:
        return
    descriptor = param.type_descriptor
    if descriptor.parameter_info.parser is not None or descriptor.file_annotation is not None:
        return
    param._runtime_param = QuickParam(
        parameter_info=descriptor.parameter_info,
        annotation=descriptor.annotation,
        descriptor=descriptor,
    )


def install() -> None:
    """Make every typer parameter use the quick coercion when it first needs one: typer asks
    for it while parsing, including for options it makes as it parses (--help), so the hook
    is on typer's method itself rather than on the parameters deckkit declares. Idempotent."""
    typer_own = _TyperParameter.get_runtime_param
    if getattr(typer_own, "deckkit_quick", False):
        return

    def get_runtime_param(self: _TyperParameter) -> RuntimeParam:
        use_quick_values(self)
        return typer_own(self)

    get_runtime_param.deckkit_quick = True  # type: ignore[attr-defined]
    _TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]
