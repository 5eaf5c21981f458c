"""The vocabulary of the declarative format description (formats_spec.py).

Each type knows two things: how to check a value read from YAML (reporting
every problem with its key path, returning the normalised value or INVALID)
and how to describe itself as JSON Schema (draft 2020-12). The validator and
`bottisota schema` therefore share one description of every format.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from bottisota.core.errors import Problem
from bottisota.formats.yaml_source import Marks, join


class _Invalid:
    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()
"""Returned by a check when the value was wrong (its problems are reported)."""


@dataclass
class Context:
    """Collects problems while checking one file."""

    marks: Marks
    problems: list[Problem] = field(default_factory=list)

    def error(self, path: str, message: str, key: bool = False) -> None:
        self.problems.append(self.marks.problem(path, message, key))


def did_you_mean(word: object, choices: Sequence[str]) -> str:
    """` — did you mean 'wall'?` for the closest choice, or ``."""
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f" — did you mean '{close[0]}'?" if close else ""


def shown(value: object) -> str:
    """A value as a message shows it (short)."""
    text = repr(value) if isinstance(value, str) else str(value)
    if value is None:
        text = "nothing (null)"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, dict):
        text = "a mapping"
    elif isinstance(value, list):
        text = f"a list of {len(value)}"
    return text if len(text) <= 40 else text[:37] + "..."


class SpecType:
    """Base of the format vocabulary."""

    doc: str = ""

    def expected(self) -> str:
        """What a message says was expected."""
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether the value is of this type's general kind (used by Choice)."""
        return True

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def _with_doc(self, out: dict) -> dict:
        if self.doc:
            out["description"] = self.doc
        return out


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass
class Num(SpecType):
    """A number (ints accepted as floats), with optional bounds."""

    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    integer: bool = False
    doc: str = ""

    def expected(self) -> str:
        what = "a whole number" if self.integer else "a number"
        if self.positive:
            what += " above 0"
        elif self.minimum is not None and self.maximum is not None:
            what += f" from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            what += f" of at least {self.minimum:g}"
        elif self.maximum is not None:
            what += f" of at most {self.maximum:g}"
        return what

    def accepts(self, value: Any) -> bool:
        return _is_number(value)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        ok = _is_number(value) and value == value and value not in (float("inf"), float("-inf"))
        if ok and self.integer and not float(value).is_integer():
            ok = False
        if ok and (self.positive and value <= 0
                   or self.minimum is not None and value < self.minimum
                   or self.maximum is not None and value > self.maximum):
            ok = False
        if not ok:
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        return int(value) if self.integer else float(value)

    def schema(self) -> dict:
        out: dict = {"type": "integer" if self.integer else "number"}
        if self.positive:
            out["exclusiveMinimum"] = 0
        elif self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return self._with_doc(out)


def Int(minimum: float | None = None, maximum: float | None = None, doc: str = "") -> Num:
    """A whole number."""
    return Num(minimum=minimum, maximum=maximum, integer=True, doc=doc)


@dataclass
class Text(SpecType):
    """A non-empty string (numbers are accepted as ids and turned into text)."""

    numbers_ok: bool = False
    doc: str = ""

    def expected(self) -> str:
        return "a text"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str) or self.numbers_ok and _is_number(value)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if self.numbers_ok and _is_number(value):
            return f"{value:g}" if isinstance(value, float) else str(value)
        if not isinstance(value, str) or not value.strip():
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        return value

    def schema(self) -> dict:
        out: dict = {"type": ["string", "number"]} if self.numbers_ok else {"type": "string",
                                                                            "minLength": 1}
        return self._with_doc(out)


@dataclass
class Bool(SpecType):
    doc: str = ""

    def expected(self) -> str:
        return "true or false"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, bool):
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        return value

    def schema(self) -> dict:
        return self._with_doc({"type": "boolean"})


@dataclass
class Enum(SpecType):
    """One word of a fixed list (case as written in formats.md)."""

    values: tuple[str, ...]
    doc: str = ""

    def expected(self) -> str:
        return "one of " + ", ".join(self.values)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if isinstance(value, str) and value in self.values:
            return value
        if isinstance(value, str) and value.lower() in self.values:
            return value.lower()
        ctx.error(path, f"expected {self.expected()}, got {shown(value)}"
                  + did_you_mean(value, self.values))
        return INVALID

    def schema(self) -> dict:
        return self._with_doc({"enum": list(self.values)})


@dataclass
class Null(SpecType):
    """Nothing (null): used inside Choice for 'or null'."""

    def expected(self) -> str:
        return "null"

    def accepts(self, value: Any) -> bool:
        return value is None

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if value is not None:
            ctx.error(path, f"expected null, got {shown(value)}")
            return INVALID
        return None

    def schema(self) -> dict:
        return {"type": "null"}


@dataclass
class Seq(SpecType):
    """A list of items of one type, with optional length limits."""

    item: SpecType
    min_items: int = 0
    max_items: int | None = None
    length: int | None = None
    what: str = ""                  # e.g. "[x, y, w, h]" for messages
    doc: str = ""

    def expected(self) -> str:
        if self.what:
            return self.what
        if self.length is not None:
            return f"a list of {self.length} ({self.item.expected()})"
        if self.min_items:
            return f"a list of at least {self.min_items} ({self.item.expected()})"
        return f"a list ({self.item.expected()})"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, list):
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        n = len(value)
        if (self.length is not None and n != self.length or n < self.min_items
                or self.max_items is not None and n > self.max_items):
            if self.max_items is not None and n > self.max_items:
                ctx.error(path, f"at most {self.max_items} items are allowed, got {n}: refused")
                return INVALID
            ctx.error(path, f"expected {self.expected()}, got {n} item{'s' * (n != 1)}")
            return INVALID
        out = [self.item.check(v, join(path, i), ctx) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in out) else out

    def schema(self) -> dict:
        out: dict = {"type": "array", "items": self.item.schema()}
        if self.length is not None:
            out["minItems"] = out["maxItems"] = self.length
        else:
            if self.min_items:
                out["minItems"] = self.min_items
            if self.max_items is not None:
                out["maxItems"] = self.max_items
        if self.what and "description" not in out:
            out["description"] = self.what
        return self._with_doc(out)


@dataclass
class MapOf(SpecType):
    """A mapping from free words (names, ids) to values of one type."""

    value: SpecType
    keys: SpecType | None = None
    doc: str = ""

    def expected(self) -> str:
        return f"a mapping of names to {self.value.expected()}"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        out = {}
        for k, v in value.items():
            sub = join(path, str(k))
            key = self.keys.check(k, sub, ctx) if self.keys is not None else str(k)
            out[key] = self.value.check(v, sub, ctx)
        return INVALID if any(v is INVALID for v in out.values()) or INVALID in out else out

    def schema(self) -> dict:
        out: dict = {"type": "object", "additionalProperties": self.value.schema()}
        if isinstance(self.keys, Enum):
            out["propertyNames"] = {"enum": list(self.keys.values)}
        return self._with_doc(out)


@dataclass
class AnyValue(SpecType):
    """Anything (checked elsewhere, e.g. actions by the codec)."""

    doc: str = ""

    def expected(self) -> str:
        return "a value"

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        return value

    def schema(self) -> dict:
        return self._with_doc({})


@dataclass
class Choice(SpecType):
    """One of several types, told apart by the value's kind (number, text, list...)."""

    options: tuple[SpecType, ...]
    what: str = ""
    doc: str = ""

    def expected(self) -> str:
        return self.what or " or ".join(o.expected() for o in self.options)

    def accepts(self, value: Any) -> bool:
        return any(o.accepts(value) for o in self.options)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        for option in self.options:
            if option.accepts(value):
                if not isinstance(option, _SCALARS):
                    return option.check(value, path, ctx)
                trial = Context(ctx.marks)
                out = option.check(value, path, trial)
                if trial.problems:      # one message naming every accepted form
                    ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
                return out
        ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
        return INVALID

    def schema(self) -> dict:
        return self._with_doc({"anyOf": [o.schema() for o in self.options]})


@dataclass
class Word(SpecType):
    """Exactly one word, e.g. `d6` (case-insensitive, stored lower-case)."""

    word: str

    def expected(self) -> str:
        return self.word

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if isinstance(value, str) and value.strip().lower() == self.word:
            return self.word
        ctx.error(path, f"expected {self.word}, got {shown(value)}")
        return INVALID

    def schema(self) -> dict:
        pattern = "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in self.word)
        return {"type": "string", "pattern": f"^{pattern}$"}


_SCALARS = (Num, Text, Bool, Word, Null)


@dataclass
class F:
    """One key of a record: its type, whether it must be given, its default."""

    type: SpecType
    required: bool = False
    default: Any = None
    doc: str = ""


RecordRule = Callable[[dict, str, Context], None]


@dataclass
class Record(SpecType):
    """A mapping with named keys: unknown keys and missing required keys are errors."""

    name: str
    fields: dict[str, F]
    doc: str = ""
    rules: tuple[RecordRule, ...] = ()   # checks across keys, run when the keys are valid
    defaults: bool = True                # fill in defaults of keys not given

    def expected(self) -> str:
        return f"a mapping ({self.name})"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        return check_fields(value, self.fields, path, ctx, self.name, self.rules, self.defaults)

    def schema(self) -> dict:
        return self._with_doc(fields_schema(self.fields))


def check_fields(value: Mapping, fields: Mapping[str, F], path: str, ctx: Context, name: str,
                 rules: Sequence[RecordRule] = (), defaults: bool = True) -> Any:
    """Check a mapping against named fields; every problem is reported."""
    before = len(ctx.problems)
    out: dict = {}
    for key, item in value.items():
        sub = join(path, str(key))
        spec = fields.get(key) if isinstance(key, str) else None
        if spec is None:
            ctx.error(sub, f"unknown key '{key}' in {name}" + did_you_mean(key, list(fields)),
                      key=True)
            continue
        out[key] = spec.type.check(item, sub, ctx)
    for key, spec in fields.items():
        if key in value:
            continue
        if spec.required:
            hint = f" ({spec.doc})" if spec.doc else f" ({spec.type.expected()})"
            ctx.error(path, f"missing key '{key}'{hint} in {name}")
        elif defaults and spec.default is not None:
            out[key] = spec.default
    if len(ctx.problems) > before:
        return INVALID
    for rule in rules:
        rule(out, path, ctx)
    return INVALID if len(ctx.problems) > before else out


def fields_schema(fields: Mapping[str, F], closed: bool = True) -> dict:
    """JSON Schema of a mapping with these fields."""
    props = {}
    for key, spec in fields.items():
        sub = dict(spec.type.schema())
        if spec.doc and "description" not in sub:
            sub["description"] = spec.doc
        if spec.default is not None:
            sub["default"] = spec.default
        props[key] = sub
    out: dict = {"type": "object", "properties": props}
    required = [k for k, s in fields.items() if s.required]
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    return out


@dataclass
class Tagged(SpecType):
    """A mapping whose `tag` key picks its variant (features by `type`)."""

    name: str
    tag: str
    common: dict[str, F]
    variants: dict[str, dict[str, F]]
    rules: tuple[RecordRule, ...] = ()
    doc: str = ""

    def expected(self) -> str:
        return f"a mapping ({self.name})"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def fields_of(self, variant: str) -> dict[str, F]:
        return {self.tag: F(Enum(tuple(self.variants)), required=True), **self.common,
                **self.variants[variant]}

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path, f"expected {self.expected()}, got {shown(value)}")
            return INVALID
        if self.tag not in value:
            ctx.error(path, f"missing key '{self.tag}' ({Enum(tuple(self.variants)).expected()})"
                      f" in {self.name}")
            return INVALID
        variant = Enum(tuple(self.variants)).check(value[self.tag], join(path, self.tag), ctx)
        if variant is INVALID:
            return INVALID
        value = {**value, self.tag: variant}
        return check_fields(value, self.fields_of(variant), path, ctx,
                            f"a {variant} {self.name}", self.rules)

    def schema(self) -> dict:
        options = []
        for variant in self.variants:
            fields = self.fields_of(variant)
            fields[self.tag] = F(Word(variant), required=True)
            sub = fields_schema(fields)
            sub["properties"][self.tag] = {"const": variant}
            sub["title"] = f"{variant} {self.name}"
            options.append(sub)
        out = {"type": "object", "required": [self.tag],
               "properties": {self.tag: {"enum": list(self.variants)}}, "oneOf": options}
        return self._with_doc(out)
