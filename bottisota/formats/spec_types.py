"""The vocabulary of the declarative format description (spec.py).

Each type knows two things: how to check a value read from YAML (reporting
every problem with its key path, returning the normalised value or INVALID)
and how to describe itself as JSON Schema (draft 2020-12). The validator and
`bottisota schema` therefore share one description of every format.
"""
from __future__ import annotations

import copy
import difflib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any  # Any: values read from a file, checked here; JSON Schema

from bottisota.core.errors import Problem
from bottisota.core.i18n import N_
from bottisota.core.printable import unsafe_character
from bottisota.formats.yaml_source import Marks, Raw, join


class _Invalid:
    def __repr__(self) -> str:
        return "INVALID"


JsonSchema = dict[str, Any]
"""A JSON Schema document (nested JSON of any shape)."""

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
    if not isinstance(word, str) or len(word) > 100:
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return N_(" — did you mean '{v}'?").format(v=close[0]) if close else ""


def shown(value: object) -> str:
    """A value as a message shows it (short)."""
    text = repr(value) if isinstance(value, str) else str(value)
    if value is None:
        text = N_("nothing (null)")
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, dict):
        text = N_("a mapping")
    elif isinstance(value, list):
        text = N_("a list of {value}").format(value=len(value))
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

    def schema(self) -> JsonSchema:
        raise NotImplementedError

    def _with_doc(self, out: JsonSchema) -> JsonSchema:
        if self.doc:
            out["description"] = self.doc
        return out


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_UNIT = re.compile(r"\s*([-+]?\d+(?:[.,]\d+)?)\s*(mm|cm|m|in|deg|degrees|°)\s*", re.I)
_IN_CM = {"mm": 0.1, "cm": 1.0, "m": 100.0, "in": 2.54}


def unit_hint(value: Any) -> str:
    """For a number written with a unit ('10cm', '1.2 m', '45°'): how to write it."""
    if not isinstance(value, str):
        return ""
    match = _UNIT.fullmatch(value)
    if match is None:
        return ""
    amount = float(match.group(1).replace(",", "."))
    unit = match.group(2).lower()
    if unit in ("deg", "degrees", "°"):
        return N_(": write the number alone ({amount:g}); angles are in degrees").format(
            amount=amount)
    cm = amount * _IN_CM[unit]
    return N_(": write the number alone in centimetres ({cm:g}); every length is in "
              "cm").format(cm=round(cm, 4))


@dataclass
class Num(SpecType):
    """A finite number (ints accepted as floats) within its declared range.

    Every number of every format declares its range (a test walks the formats):
    `minimum`/`maximum` are inclusive, `positive` means above 0 (a value
    that something divides by)."""

    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    integer: bool = False
    doc: str = ""

    def kind(self) -> str:
        return N_("a whole number") if self.integer else N_("a number")

    def range_text(self) -> str:
        low = N_("above 0") if self.positive else (
            N_("at least {minimum:g}").format(
                minimum=self.minimum) if self.minimum is not None else "")
        if self.maximum is not None:
            if self.positive:
                return N_("above 0 and at most {maximum:g}").format(maximum=self.maximum)
            if self.minimum is not None:
                return N_("from {minimum:g} to {maximum:g}").format(
                           minimum=self.minimum, maximum=self.maximum)
            return N_("at most {maximum:g}").format(maximum=self.maximum)
        return low

    def expected(self) -> str:
        span = self.range_text()
        return f"{self.kind()} {span}" if span else self.kind()

    def accepts(self, value: Any) -> bool:
        return _is_number(value)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not _is_number(value) or self.integer and isinstance(value, float) and (
                not math.isfinite(value) or not value.is_integer()):
            ctx.error(path,
                    N_("expected {kind}, got {value}").format(
                        kind=self.kind(), value=shown(value)) + unit_hint(value))
            return INVALID
        if not math.isfinite(value):
            ctx.error(path,
                    N_("expected a finite number ({v}), got {value}").format(
                        v=self.range_text() or N_('any size'), value=shown(value)))
            return INVALID
        if (self.positive and value <= 0 or self.minimum is not None and value < self.minimum
                or self.maximum is not None and value > self.maximum):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        return int(value) if self.integer else float(value)

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "integer" if self.integer else "number"}
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
    """A non-empty string of at most `max_length` characters (numbers are
    accepted as ids and turned into text when `numbers_ok`)."""

    numbers_ok: bool = False
    doc: str = ""
    max_length: int = 200
    lines_ok: bool = False          # line breaks and tabs allowed (a description)

    def expected(self) -> str:
        return N_("a text")

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str) or self.numbers_ok and _is_number(value)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if self.numbers_ok and _is_number(value) and (
                not isinstance(value, float) or math.isfinite(value)):
            return f"{value:g}" if isinstance(value, float) else str(value)
        if not isinstance(value, str) or not value.strip():
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        if len(value) > self.max_length:
            ctx.error(path,
                    N_("a text of at most {max_length} characters is expected, got {value}").format(
                        max_length=self.max_length, value=len(value)))
            return INVALID
        bad = unsafe_character(value, self.lines_ok)
        if bad is not None:
            ctx.error(path,
                    N_("character {k} of this text is U+{code:04X}, a control or format "
                       "character (an escape, a NUL); ids and names are printable text").format(
                        k=bad + 1, code=ord(value[bad])))
            return INVALID
        return value

    def schema(self) -> JsonSchema:
        out: JsonSchema = ({"type": ["string", "number"]} if self.numbers_ok
                     else {"type": "string", "minLength": 1})
        out["maxLength"] = self.max_length
        return self._with_doc(out)


@dataclass
class Bool(SpecType):
    """A spec type: true or false."""

    doc: str = ""

    def expected(self) -> str:
        return N_("true or false")

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, bool):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        return value

    def schema(self) -> JsonSchema:
        return self._with_doc({"type": "boolean"})


@dataclass
class Enum(SpecType):
    """One word of a fixed list (case as written in formats.md); `noun` names it in
    messages ("unknown move 'charge'")."""

    values: tuple[str, ...]
    doc: str = ""
    noun: str = ""

    def expected(self) -> str:
        return N_("one of ") + ", ".join(self.values)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if isinstance(value, str) and value in self.values:
            return value
        if isinstance(value, str) and value.lower() in self.values:
            return value.lower()
        if self.noun and isinstance(value, str):
            ctx.error(path,
                    N_("unknown {noun} {value}; known: ").format(
                        noun=self.noun, value=shown(value))
                      + ", ".join(self.values) + did_you_mean(value, self.values))
        else:
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value))
                      + did_you_mean(value, self.values))
        return INVALID

    def schema(self) -> JsonSchema:
        return self._with_doc({"enum": list(self.values)})


@dataclass
class Const(SpecType):
    """Exactly one value, e.g. `true` in `{bot: a, pass: true}`."""

    value: Any
    doc: str = ""

    def expected(self) -> str:
        return shown(self.value)

    def accepts(self, value: Any) -> bool:
        return type(value) is type(self.value)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if type(value) is type(self.value) and value == self.value:
            return value
        ctx.error(path,
                N_("expected {expected}, got {value}").format(
                    expected=self.expected(), value=shown(value)))
        return INVALID

    def schema(self) -> JsonSchema:
        return self._with_doc({"const": self.value})


@dataclass
class Null(SpecType):
    """Nothing (null): used inside Choice for 'or null'."""

    def expected(self) -> str:
        return "null"

    def accepts(self, value: Any) -> bool:
        return value is None

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if value is not None:
            ctx.error(path, N_("expected null, got {value}").format(value=shown(value)))
            return INVALID
        return None

    def schema(self) -> JsonSchema:
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
            return N_("a list of {length} ({expected})").format(
                       length=self.length, expected=self.item.expected())
        if self.min_items:
            return N_("a list of at least {min_items} ({expected})").format(
                       min_items=self.min_items, expected=self.item.expected())
        return N_("a list ({expected})").format(expected=self.item.expected())

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, list):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        n = len(value)
        if (self.length is not None and n != self.length or n < self.min_items
                or self.max_items is not None and n > self.max_items):
            if self.max_items is not None and n > self.max_items:
                ctx.error(path,
                        N_("at most {max_items} items are allowed, got {n}: refused").format(
                            max_items=self.max_items, n=n))
                return INVALID
            ctx.error(path,
                    N_("expected {expected}, got {n} item{v}").format(
                        expected=self.expected(), n=n, v='s' * (n != 1)))
            return INVALID
        out = [self.item.check(v, join(path, i), ctx) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in out) else out

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "array", "items": self.item.schema()}
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
    max_items: int = 1000

    def expected(self) -> str:
        return N_("a mapping of names to {expected}").format(expected=self.value.expected())

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        if len(value) > self.max_items:
            ctx.error(path,
                    N_("at most {max_items} entries are allowed, got {value}: refused").format(
                        max_items=self.max_items, value=len(value)))
            return INVALID
        out = {}
        bad = False
        for k, v in value.items():
            sub = join(path, str(k))
            key = self.keys.check(k, sub, ctx) if self.keys is not None else str(k)
            checked = self.value.check(v, sub, ctx)
            bad = bad or key is INVALID or checked is INVALID
            if key is not INVALID:
                out[key] = checked
        return INVALID if bad else out

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "object", "additionalProperties": self.value.schema(),
                     "maxProperties": self.max_items}
        if self.keys is not None:
            out["propertyNames"] = self.keys.schema()
        return self._with_doc(out)


@dataclass
class AnyValue(SpecType):
    """Anything (checked elsewhere, e.g. actions by the codec)."""

    doc: str = ""

    def expected(self) -> str:
        return N_("a value")

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        return value

    def schema(self) -> JsonSchema:
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
                    ctx.error(path,
                            N_("expected {expected}, got {value}").format(
                                expected=self.expected(), value=shown(value)))
                return out
        ctx.error(path,
                N_("expected {expected}, got {value}").format(
                    expected=self.expected(), value=shown(value)))
        return INVALID

    def schema(self) -> JsonSchema:
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
        ctx.error(path,
                N_("expected {word}, got {value}").format(word=self.word, value=shown(value)))
        return INVALID

    def schema(self) -> JsonSchema:
        pattern = "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in self.word)
        return {"type": "string", "pattern": f"^{pattern}$"}


_SCALARS = (Num, Text, Bool, Word, Null, Const)


@dataclass
class F:
    """One key of a record: its type, whether it must be given, its default."""

    type: SpecType
    required: bool = False
    default: Any = None
    doc: str = ""


RecordRule = Callable[[Raw, str, Context], None]

META_FIELDS: dict[str, F] = {
    "name": F(Text(), doc="a name for people; the rules ignore it"),
    "description": F(Text(max_length=10_000, lines_ok=True),
                     doc="what this is, for people; the rules ignore it"),
    "author": F(Text(max_length=1000, lines_ok=True), doc="who made it; the rules ignore it"),
    "version": F(Text(numbers_ok=True, max_length=100), doc="its version; the rules ignore it"),
    "license": F(Text(max_length=1000, lines_ok=True), doc="its licence; the rules ignore it"),
}
"""Metadata accepted in every record (top level, features, weapons, cards, mods) and
ignored by the rules; any key starting `x-` is accepted too, with any value."""
EXTENSION_PREFIX = "x-"


def is_extension(key: object) -> bool:
    """`x-…` keys: free for tools and designers, ignored by the rules."""
    return isinstance(key, str) and key.startswith(EXTENSION_PREFIX)


@dataclass
class Record(SpecType):
    """A mapping with named keys: unknown keys and missing required keys are errors."""

    name: str
    fields: dict[str, F]
    doc: str = ""
    rules: tuple[RecordRule, ...] = ()   # checks across keys, run when the keys are valid
    defaults: bool = True                # fill in defaults of keys not given
    meta: bool = True                    # accept metadata keys (name, description, x-...)

    def expected(self) -> str:
        return N_("a mapping ({name})").format(name=self.name)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        return check_fields(value, self.fields, path, ctx, self.name, self.rules, self.defaults,
                            self.meta)

    def schema(self) -> JsonSchema:
        return self._with_doc(fields_schema(self.fields, meta=self.meta))


def check_fields(value: Mapping[Any, Any], fields: Mapping[str, F], path: str, ctx: Context,
                 name: str,
                 rules: Sequence[RecordRule] = (), defaults: bool = True,
                 meta: bool = True) -> Any:
    """Check a mapping against named fields; every problem is reported.

    Metadata keys (META_FIELDS, `x-…`) are checked and left out of the result."""
    before = len(ctx.problems)
    out: Raw = {}
    for key, item in value.items():
        sub = join(path, str(key))
        spec = fields.get(key) if isinstance(key, str) else None
        if spec is None and meta and (key in META_FIELDS or is_extension(key)):
            if key in META_FIELDS:
                META_FIELDS[key].type.check(item, sub, ctx)
            continue
        if spec is None:
            ctx.error(sub,
                    N_("unknown key '{key}' in {name}").format(key=shown_key(key), name=name)
                      + did_you_mean(key, list(fields)), key=True)
            continue
        out[key] = spec.type.check(item, sub, ctx)
    for key, spec in fields.items():
        if key in value:
            continue
        if spec.required:
            hint = f" ({spec.doc})" if spec.doc else f" ({spec.type.expected()})"
            ctx.error(path,
                    N_("missing key '{key}'{hint} in {name}").format(
                        key=key, hint=hint, name=name))
        elif defaults and spec.default is not None:
            out[key] = copy.deepcopy(spec.default)
    if len(ctx.problems) > before:
        return INVALID
    for rule in rules:
        rule(out, path, ctx)
    return INVALID if len(ctx.problems) > before else out


def shown_key(key: object) -> str:
    """A key as a message quotes it (cut short)."""
    text = str(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _property(spec: F) -> JsonSchema:
    sub = dict(spec.type.schema())
    if spec.doc:
        sub["description"] = spec.doc
    elif "description" not in sub:
        sub["description"] = spec.type.expected()
    if spec.default is not None:
        sub["default"] = spec.default
    return sub


def fields_schema(fields: Mapping[str, F], closed: bool = True, meta: bool = True) -> JsonSchema:
    """JSON Schema of a mapping with these fields (a description on every property)."""
    props = {key: _property(spec) for key, spec in fields.items()}
    if meta:
        for key, spec in META_FIELDS.items():
            props.setdefault(key, _property(spec))
    out: JsonSchema = {"type": "object", "properties": props}
    if meta:
        out["patternProperties"] = {f"^{EXTENSION_PREFIX}": {
            "description": N_("an extension key for tools and notes; the rules ignore it")}}
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
    tag_doc: str = ""

    def expected(self) -> str:
        return N_("a mapping ({name})").format(name=self.name)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def fields_of(self, variant: str) -> dict[str, F]:
        return {self.tag: F(Enum(tuple(self.variants)), required=True, doc=self.tag_doc),
                **self.common, **self.variants[variant]}

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        if self.tag not in value:
            ctx.error(path,
                    N_("missing key '{tag}' ({expected}) in {name}").format(
                        tag=self.tag, expected=Enum(tuple(self.variants)).expected(),
                        name=self.name))
            return INVALID
        variant = Enum(tuple(self.variants)).check(value[self.tag], join(path, self.tag), ctx)
        if variant is INVALID:
            return INVALID
        value = {**value, self.tag: variant}
        return check_fields(value, self.fields_of(variant), path, ctx,
                            f"a {variant} {self.name}", self.rules)

    def schema(self) -> JsonSchema:
        """Discriminated on the tag by if/then: each variant's keys closed in its `then`."""
        branches = []
        for variant in self.variants:
            fields = self.fields_of(variant)
            then = fields_schema(fields)
            then["properties"][self.tag] = {"const": variant,
                                            "description": self.tag_doc or self.tag}
            then["title"] = f"{variant} {self.name}"
            branches.append({"if": {"properties": {self.tag: {"const": variant}},
                                    "required": [self.tag]},
                             "then": then})
        out = {"type": "object", "required": [self.tag],
               "properties": {self.tag: {"enum": list(self.variants),
                                         "description": self.tag_doc or self.tag}},
               "allOf": branches}
        return self._with_doc(out)


@dataclass
class Keyed(SpecType):
    """A mapping told apart by which one of its variant keys it holds: an action
    by `move`, `shoot`, ...; a movement step by `forward`, `turn`, ..."""

    name: str
    variants: dict[str, F]                       # the telling key -> its value
    common: dict[str, F] = field(default_factory=dict)
    extras: dict[str, dict[str, F]] = field(default_factory=dict)   # keys of one variant only
    doc: str = ""
    meta: bool = True

    def expected(self) -> str:
        return N_("a mapping ({name}) with one of ").format(
                   name=self.name) + ", ".join(self.variants)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def fields_of(self, variant: str) -> dict[str, F]:
        return {**self.common, variant: self.variants[variant], **self.extras.get(variant, {})}

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(path,
                    N_("expected {expected}, got {value}").format(
                        expected=self.expected(), value=shown(value)))
            return INVALID
        kinds = [k for k in self.variants if k in value]
        if not kinds:
            known = {*self.common, *(k for e in self.extras.values() for k in e)}
            extra = [k for k in value if k not in known and not (
                self.meta and (k in META_FIELDS or is_extension(k)))]
            if extra:
                ctx.error(join(path, str(extra[0])),
                        N_("unknown key '{v}': {name} needs one of ").format(
                            v=shown_key(extra[0]), name=_a(self.name)) + ", ".join(self.variants)
                          + did_you_mean(extra[0], list(self.variants)), key=True)
            else:
                ctx.error(path,
                        N_("{name} needs one of ").format(
                            name=_a(self.name)) + ", ".join(self.variants))
            return INVALID
        if len(kinds) > 1:
            ctx.error(join(path, kinds[1]),
                    N_("one {name} per entry: both '{v}' and '{v2}' are given").format(
                        name=self.name, v=kinds[0], v2=kinds[1]), key=True)
            return INVALID
        return check_fields(value, self.fields_of(kinds[0]), path, ctx,
                            f"{_a(kinds[0].replace('_', ' '))} {self.name}", meta=self.meta)

    def schema(self) -> JsonSchema:
        """Every key described once; if a variant's key is present, the keys of the
        other variants are not allowed (if/then), and one variant key is required."""
        fields: dict[str, F] = {**self.common, **self.variants}
        for extra in self.extras.values():
            fields.update(extra)
        out = fields_schema(fields, meta=self.meta)
        own = {k: {k, *self.extras.get(k, {})} for k in self.variants}
        every = set().union(*own.values())
        out["anyOf"] = [{"required": [k]} for k in self.variants]
        out["allOf"] = [{"if": {"required": [k]},
                         "then": {"properties": {o: False for o in sorted(every - own[k])}}}
                        for k in self.variants]
        return self._with_doc(out)


def _a(word: str) -> str:
    return N_("an {word}").format(word=word) if word[:1] in "aeiou" else f"a {word}"
