"""The frozen data every stage passes on: the tool contract, what lowering lost, and lint findings.

A :class:`ToolContract` is the source-independent truth about a tool: its name, description, the
**full-fidelity JSON Schema (draft 2020-12)** of its arguments, its effect, whether it needs confirmation,
and (for OpenAPI tools) how arguments bind back to an HTTP request. Both sources produce one
(``_from_python`` and ``_openapi``); lowering, validation, fixtures, golden files and code generation only
ever read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from toolkit._display import Displayable, displayed_by
from toolkit._regex import lazy

if TYPE_CHECKING:
    from toolkit._credential_record import Credential

__all__ = [
    "CONVERTED",
    "DECIMAL_ARGUMENTS",
    "DECIMAL_BOUNDS",
    "PARAMETER_NAME",
    "TOOL_NAME",
    "Effect",
    "FormEncoding",
    "FormStyle",
    "FrameworkSource",
    "Injected",
    "Lint",
    "Loss",
    "Policy",
    "SecurityScheme",
    "Severity",
    "ToolContract",
    "parse_binding",
]

TOOL_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
"""The genai ``FunctionDeclaration`` name rule: a letter or ``_`` first, then letters, digits, ``_.:-``; ≤ 128."""

PARAMETER_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
"""The rule every argument name must meet (what Vertex AI accepts as a parameter name)."""

Effect = Literal["read", "write"]
Severity = Literal["error", "warning", "info"]
BindingLocation = Literal["path", "query", "header", "body"]
FormStyle = Literal["form", "spaceDelimited", "pipeDelimited", "deepObject"]

DECIMAL_BOUNDS: Mapping[str, str] = MappingProxyType(
    {
        "gt": "exclusiveMinimum",
        "ge": "minimum",
        "lt": "exclusiveMaximum",
        "le": "maximum",
        "multiple_of": "multipleOf",
        "max_digits": "maxDigits",
        "decimal_places": "decimalPlaces",
    }
)
"""A Python ``Decimal``'s ``Field(...)`` bounds, each with the keyword its :class:`Loss` of ``args_schema`` is
recorded under: a ``Decimal`` travels as a decimal string, whose value JSON Schema cannot bound."""
DECIMAL_ARGUMENTS: Mapping[str, str] = MappingProxyType({keyword: name for name, keyword in DECIMAL_BOUNDS.items()})
"""The same pairs the other way: the ``Field(...)`` argument that enforces each loss's keyword on conversion."""

CONVERTED = (
    "a Decimal travels as a decimal string, which JSON Schema cannot bound; "
    "the bound is enforced when the argument is converted to Decimal"
)
"""The reason of a :class:`Loss` that the tool's conversion enforces (not its schema): ``validate`` runs the
conversion for a tool with such a loss, so it refuses what ``call`` would."""


@displayed_by("toolkit._display._core:LOSS_RENDERER")
@dataclass(frozen=True, slots=True)
class Loss(Displayable):
    """Something a stage could not carry into the declaration the model sees.

    ``path`` is a JSON pointer into the tool's ``args_schema`` (``""`` is the root), ``keyword`` the schema
    keyword that was dropped or changed, ``value`` its original value, ``reason`` why, in words.
    The validator still enforces everything recorded here, because it reads ``args_schema``.
    """

    path: str
    keyword: str
    value: Any
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "keyword": self.keyword, "value": self.value, "reason": self.reason}


@displayed_by("toolkit._display._core:LINT_RENDERER")
@dataclass(frozen=True, slots=True)
class Lint(Displayable):
    """A known trap found in a tool, at a parameter (``path`` is a dotted field path, ``""`` = the tool)."""

    code: str
    slug: str
    severity: Severity
    path: str
    message: str
    fix: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "slug": self.slug,
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "fix": self.fix,
        }


@dataclass(frozen=True, slots=True)
class Injected:
    """A parameter the runtime fills, never the model: it is left out of ``args_schema`` and the declaration.

    ``framework`` names who fills it (``"toolkit"`` for :class:`toolkit.ToolContext`, ``"google-adk"``,
    ``"langchain"``, ``"langgraph"``, ``"mcp"``, ``"fastmcp"``, ``"openai-agents"``, ``"pydantic-ai"``,
    ``"agno"``), ``type`` the qualified name of the annotation (or marker, or default) that gave it away,
    ``reason`` the rule in words. ``required``: the function has no default for it, so a call outside its
    framework must supply it (``ToolContext(extras={name: value})``).
    """

    name: str
    framework: str
    type: str
    reason: str
    required: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "framework": self.framework,
            "type": self.type,
            "reason": self.reason,
            "required": self.required,
        }


@dataclass(frozen=True, slots=True)
class FrameworkSource:
    """The agent framework's tool object a function tool was read from, and what that framework declares.

    ``object_type`` is the object's qualified class name; ``schema`` the parameters JSON Schema the framework
    itself would send (``None`` when it has none or refused to make one; ``refusal`` then says why). The lints
    compare it with toolkit's own derivation and report where they disagree.
    """

    framework: str
    object_type: str
    schema: Mapping[str, Any] | None = None
    refusal: str = ""


@dataclass(frozen=True, slots=True)
class Policy:
    """How the boundary treats arguments that are not quite right. Defaults are the strict, safe ones.

    * ``enum_case``: ``"strict"`` rejects ``"OPEN"`` for ``"open"``; ``"insensitive"`` normalises it and
      reports a notice.
    * ``null_optional``: ``"absent"`` treats an explicit ``null`` for an optional, non-nullable parameter as
      if it were omitted (its default applies, with a notice); ``"reject"`` refuses it.
    * ``clamp``: ``None`` derives it from the tool's effect: **read** tools clamp bounded numbers (with a
      notice), **write** tools reject them. ``True``/``False`` force it.
    * ``unlisted_properties``: ``"refuse"`` reads every object schema that lists ``properties`` and says
      nothing of ``additionalProperties``/``unevaluatedProperties`` as closed, at every depth (a key no
      property, pattern, ``allOf`` member, matching branch or ``$ref`` lists is ``unknown_property``; where
      ``allOf`` siblings each declare some properties of one property, its value may carry all of them), and
      ``Tool.args_schema`` says so (see :mod:`toolkit._validation._closure`); ``"allow"`` leaves such objects
      open, as JSON Schema does. An explicit ``additionalProperties`` is honoured either way (pydantic's
      ``extra="allow"`` writes ``true``).
    * ``declaration_budget``: bytes of compact JSON the tool's declaration may take; over it, lowering reduces
      the declaration (each reduction a loss) or refuses the tool (see :mod:`toolkit._lowering._budget`).
      ``None`` takes the budget the tool is built with (``from_function(budget=...)``,
      ``from_openapi(budget=...)``; by default 8 KiB, which builds what no reduction fits with a lint).
    """

    enum_case: Literal["strict", "insensitive"] = "strict"
    null_optional: Literal["absent", "reject"] = "absent"
    clamp: bool | None = None
    unlisted_properties: Literal["refuse", "allow"] = "refuse"
    declaration_budget: int | None = None

    def clamps(self, effect: Effect) -> bool:
        return effect == "read" if self.clamp is None else self.clamp


@dataclass(frozen=True, slots=True)
class SecurityScheme:
    """Where one credential goes: ``kind`` api_key (``location`` header/query/cookie, ``name``) or bearer/basic.

    ``key`` is the scheme's name in the spec; the runtime configuration maps it to the secret's source, and
    without one the environment variable ``env`` is read (``""``: none; see
    :func:`toolkit._credential_record.env_name`).
    """

    key: str
    kind: Literal["api_key", "bearer", "basic"]
    location: Literal["header", "query", "cookie"] = "header"
    name: str = "Authorization"
    env: str = ""


@dataclass(frozen=True, slots=True)
class FormEncoding:
    """How one field of an ``application/x-www-form-urlencoded`` body is encoded (the spec's ``encoding``).

    ``style`` and ``explode`` as OpenAPI defines them for forms (default ``form``, exploded); ``deepObject``
    writes nested values in brackets at any depth (``a[b][c]=``, ``a[0]=``: Stripe's style); ``json`` sends
    the value as JSON text (an ``encoding`` ``contentType`` of ``application/json``).
    """

    style: FormStyle = "form"
    explode: bool = True
    json: bool = False


@dataclass(frozen=True, slots=True)
class ToolContract:
    """Everything the pipeline knows about one tool before lowering.

    ``args_schema`` is always an object schema (``{"type": "object", "properties": ..., "required": ...,
    "additionalProperties": false}``) in JSON Schema 2020-12, with ``$defs`` for shared or recursive parts.
    ``source_losses`` are losses taken before lowering (for example an OpenAPI ``discriminator`` or a cut
    ``$ref`` cycle); lowering adds its own. ``binding`` maps each argument to where it goes in an HTTP
    request (see :func:`parse_binding`); it is empty for function tools.

    What the edges need from the source travels here too, so no edge reads the spec again: ``security`` (the
    schemes the operation's requests carry, filled from configuration at run time, never by the model),
    ``servers`` (the base URLs the document names for the operation) and ``domain_rules`` (declarative
    ``{field, schema, problem, expected}`` rules from the overrides or ``x-agent-tool``; the tool enforces them
    as domain checks, and generated modules store them).

    What the runtime fills and the model never sees: ``credentials`` (parameters the spec declares that carry
    a secret, see :class:`~toolkit._credential_record.Credential`) and ``idempotency_key`` (where the operation takes
    an idempotency key, as a binding value such as ``"header.Idempotency-Key"``: the runtime sends the
    ledger's dedupe key there). ``form`` is ``None`` for a JSON body; for an ``application/x-www-form-urlencoded``
    body it maps body field names to their :class:`FormEncoding` encoding (a field not listed uses the default).
    """

    name: str
    description: str
    args_schema: Mapping[str, Any]
    effect: Effect = "write"
    confirm: bool = False
    binding: Mapping[str, str] = field(default_factory=dict)
    source: Literal["function", "openapi", "schema"] = "function"
    operation_id: str | None = None
    method: str | None = None
    path: str | None = None
    source_losses: tuple[Loss, ...] = ()
    security: tuple[SecurityScheme, ...] = ()
    servers: tuple[str, ...] = ()
    domain_rules: tuple[Mapping[str, Any], ...] = ()
    injected: tuple[Injected, ...] = ()
    framework: FrameworkSource | None = None
    credentials: tuple[Credential, ...] = ()
    idempotency_key: str | None = None
    form: Mapping[str, FormEncoding] | None = None


def parse_binding(value: str) -> tuple[BindingLocation, str | None]:
    """Split a binding value into its location and original name.

    ``"path"`` → ``("path", None)`` (the argument keeps its name), ``"header.X-Request-ID"`` →
    ``("header", "X-Request-ID")``, ``"body"`` → ``("body", None)`` (the whole body),
    ``"body.amount"`` → ``("body", "amount")`` (one hoisted body property).
    """
    location, _, original = value.partition(".")
    if location not in ("path", "query", "header", "body"):
        raise ValueError(f"binding {value!r} names no known location (path, query, header, body)")
    return location, (original or None)  # type: ignore[return-value]
