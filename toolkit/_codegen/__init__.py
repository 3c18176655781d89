"""Generated tool modules (strategy B): a toolset in, ``{relative_path: text}`` out, no IO.

For each tool the package gets a module (binding map, trim settings, security schemes, credentials with the
environment variables they are read from, a class) plus two JSON resources: ``declarations/<module>.json`` (the
exact golden declaration the model receives) and ``contracts/<module>.json`` (key order kept: the contract's
full ``args_schema``, which the loaded tool closes again under its policy, effect, confirmation, method, path,
idempotency key, form encoding, policy and losses). At import a module loads both through
``importlib.resources`` and builds its :class:`toolkit.Tool` directly from them
(:func:`toolkit.runtime.http.load_tool`): the spec is never parsed again.

**Spec text enters Python source only through** :func:`repr` (strings, tuples, dicts of strings) **or as
JSON resources.** Identifiers (module and class names) are derived from the sanitised tool name and checked
with :meth:`str.isidentifier`; anything that cannot become one is refused with :class:`CodegenError`.
Output is byte-identical on regeneration: files are sorted, JSON is canonical, there are no timestamps.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from toolkit import __version__
from toolkit._canonical import json_copy, pretty
from toolkit._codegen._files import GENERATED_MARK, load_trim, stale_files, write_package
from toolkit._contract import FormEncoding, SecurityScheme
from toolkit._credential_record import Credential
from toolkit._exceptions import CodegenError
from toolkit._tool import Tool, Toolset
from toolkit.runtime.trim import Trim

__all__ = ["GENERATED_MARK", "generate", "load_trim", "module_name", "stale_files", "write_package"]

_HEX64 = re.compile(r"[0-9a-f]{64}")
# Names the package __init__ binds itself; a module with one of these names would shadow it.
_RESERVED = frozenset({"annotations", "load_tools", "declarations", "contracts", "final", "toolset"})


def module_name(tool_name: str) -> str:
    """The Python module name for a tool: lowercase, ``[a-z0-9_]``, never a keyword or a reserved name."""
    stem = re.sub(r"[^0-9a-z_]", "_", tool_name.lower()).strip("_")
    stem = re.sub(r"_+", "_", stem)
    if stem and stem[0].isdigit():
        stem = f"tool_{stem}"
    if keyword.iskeyword(stem) or keyword.issoftkeyword(stem) or stem in _RESERVED:
        stem = f"{stem}_tool"
    if not stem.isidentifier() or not stem.isascii():
        raise CodegenError(
            f"tool name {tool_name!r} gives no usable Python module name; rename the tool (x-agent-tool name "
            "or an override) to letters, digits and underscores",
            slug="bad_module_name",
        )
    return stem


def _class_name(stem: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in stem.split("_") if part) + "Tool"


def _recorded_path(source: Mapping[str, Any], path: str | None) -> str:
    """The spec path a generated file records: as given, but only the file name of an absolute path (a
    machine's folders are no part of the package, and the files stay the same wherever they are generated)."""
    given = path if path is not None else str(source.get("path", ""))
    if PurePosixPath(given).is_absolute() or PureWindowsPath(given).is_absolute():
        return PureWindowsPath(given).name  # the name after the last `/` or `\\`
    return given


def _provenance(source: Mapping[str, Any], spec_path: str) -> list[str]:
    digest = str(source.get("sha256", ""))
    shown = digest if _HEX64.fullmatch(digest) else repr(digest)
    return [
        f"{GENERATED_MARK} {__version__} — generated, do not edit: change the spec or its overrides and",
        "# run `toolkit generate` again.",
        f"# Source: {spec_path!r}",
        f"# sha256: {shown}",
    ]


def _literal_block(target: str, items: list[str], opener: str, closer: str) -> str:
    """``target = (a, b)`` one item per line (or the empty literal), each item already a safe literal."""
    if not items:
        return f"{target} = {opener}{closer}\n"
    body = "".join(f"    {item},\n" for item in items)
    return f"{target} = {opener}\n{body}{closer}\n"


def _trim_literal(settings: Trim) -> str:
    keep = repr(tuple(str(name) for name in settings.keep_fields))
    return f"Trim(keep_fields={keep}, max_items={settings.max_items!r}, max_bytes={settings.max_bytes!r})"


def _scheme_literal(scheme: SecurityScheme) -> str:
    return (
        f"SecurityScheme(key={scheme.key!r}, kind={scheme.kind!r}, location={scheme.location!r}, "
        f"name={scheme.name!r}, env={scheme.env!r})"
    )


def _credential_literal(credential: Credential) -> str:
    """One keyword per line: a credential's detail text is long."""
    fields = ("name", "location", "reason", "detail", "env", "scheme", "required")
    return "Credential(\n" + "".join(f"        {f}={getattr(credential, f)!r},\n" for f in fields) + "    )"


def _module(tool: Tool, stem: str, header: list[str], settings: Trim) -> str:
    cls = _class_name(stem)
    binding = [f"{k!r}: {v!r}" for k, v in sorted(tool.binding.items())]
    schemes = [_scheme_literal(s) for s in tool.contract.security]
    credentials = [_credential_literal(c) for c in tool.contract.credentials]
    package = "__name__.rpartition('.')[0]"
    load = [package, repr(stem), "binding=BINDING", "security=SECURITY", "credentials=CREDENTIALS"]
    lines = [
        *header,
        '"""One generated HTTP tool (toolkit strategy B). Its declaration and contract are JSON resources."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "from toolkit import Tool",
        "from toolkit.runtime.http import (",
        *[
            f"    {name},"
            for name in ("Credential", "HttpClient", "HttpConfig", "HttpTool", "SecurityScheme", "Trim", "load_tool")
        ],
        ")",
        "",
        f'__all__ = ["BINDING", "CREDENTIALS", "NAME", "SECURITY", "TOOL", "TRIM", "{cls}", "build"]',
        "",
        f"NAME: Final = {tool.name!r}",
        _literal_block("BINDING: Final[dict[str, str]]", binding, "{", "}").rstrip("\n"),
        f"TRIM: Final = {_trim_literal(settings)}",
        _literal_block("SECURITY: Final[tuple[SecurityScheme, ...]]", schemes, "(", ")").rstrip("\n"),
        _literal_block("CREDENTIALS: Final[tuple[Credential, ...]]", credentials, "(", ")").rstrip("\n"),
        "TOOL: Final[Tool] = load_tool(",
        *[f"    {argument}," for argument in load],
        ")",
        "",
        "",
        f"class {cls}(HttpTool):",
        '    """The tool over HTTP: validates, binds by ``BINDING``, calls, maps and trims the response."""',
        "",
        "    def __init__(self, config: HttpConfig | None = None, *, client: HttpClient | None = None) -> None:",
        "        super().__init__(TOOL, trim=TRIM, config=config, client=client)",
        "",
        "",
        f"def build(config: HttpConfig | None = None) -> {cls}:",
        '    """The tool bound to ``config`` (base URL, credentials, confirmation policy, transport)."""',
        f"    return {cls}(config)",
    ]
    return "\n".join(lines) + "\n"


def _import_line(stems: list[str]) -> str:
    """Always the parenthesised form with a trailing comma: stable under any isort line length."""
    return "from . import (\n" + "".join(f"    {s},\n" for s in stems) + ")"


def _init(toolset: Toolset, stems: list[str], header: list[str], source: dict[str, str]) -> str:
    source_items = [f"{k!r}: {v!r}" for k, v in sorted(source.items())]
    lines = [
        *header,
        '"""A generated tool package (toolkit strategy B): one module per tool, declarations as resources.',
        "",
        "``TOOLS`` is the :class:`toolkit.Toolset` (validation only, no network); ``load_tools(config)`` gives",
        "the HTTP tools, sharing one client. Regenerate with ``toolkit generate``; never edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "from toolkit import Toolset",
        "from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool",
        "",
        _import_line(stems),
        "",
        '__all__ = ["NAMESPACE", "SOURCE", "TOOLS", "load_tools"]',
        "",
        f"NAMESPACE: Final = {toolset.namespace!r}",
        _literal_block("SOURCE: Final[dict[str, str]]", source_items, "{", "}").rstrip("\n"),
        "TOOLS: Final = Toolset(",
        "    namespace=NAMESPACE,",
        "    tools=(",
        *[f"        {s}.TOOL," for s in stems],
        "    ),",
        "    source=SOURCE,",
        ")",
        "",
        "",
        "def load_tools(config: HttpConfig | None = None) -> tuple[HttpTool, ...]:",
        '    """Every tool of the package as an HTTP tool bound to ``config``, all sharing one HTTP client."""',
        "    client = HttpClient(config)",
        "    return (",
        *[f"        {s}.{_class_name(s)}(client=client)," for s in stems],
        "    )",
    ]
    return "\n".join(lines) + "\n"


def _ordered_json(value: Any) -> str:
    """Like :func:`pretty` but keeping key order: property order in ``args_schema`` is part of the contract."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _contract_json(tool: Tool, rules: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "args_schema": json_copy(dict(tool.contract.args_schema)),
        "domain_rules": [dict(rule) for rule in rules],
        "confirm": tool.confirm,
        "effect": tool.effect,
        "losses": [loss.to_dict() for loss in tool.losses],
        "method": tool.method,
        "operation_id": tool.operation_id,
        "path": tool.path,
        "idempotency_key": tool.contract.idempotency_key,
        "form": _form_json(tool.contract.form),
        "policy": {
            "clamp": tool.policy.clamp,
            "enum_case": tool.policy.enum_case,
            "null_optional": tool.policy.null_optional,
        },
    }


def _form_json(form: Mapping[str, FormEncoding] | None) -> dict[str, Any] | None:
    if form is None:
        return None
    return {name: {"style": f.style, "explode": f.explode, "json": f.json} for name, f in sorted(form.items())}


def _rules(tool: Tool) -> Sequence[Mapping[str, Any]]:
    rules = tool.contract.domain_rules
    if len(rules) != len(tool.domain_checks):
        raise CodegenError(
            f"tool {tool.name!r} has {len(tool.domain_checks)} domain check(s) but {len(rules)} declarative rule(s); "
            "a generated module can only enforce declarative rules ({field, schema, problem, expected}): put every "
            "check in the overrides' or x-agent-tool's `domain` list",
            slug="domain_not_declarative",
        )
    return rules


def _stems(tools: tuple[Tool, ...]) -> dict[str, Tool]:
    by_stem: dict[str, Tool] = {}
    for tool in tools:
        if tool.method is None or tool.path is None:
            raise CodegenError(
                f"tool {tool.name!r} is not an HTTP operation; generate modules from an OpenAPI toolset",
                slug="not_an_operation",
            )
        stem = module_name(tool.name)
        if stem in by_stem or _class_name(stem) in {_class_name(s) for s in by_stem}:
            raise CodegenError(
                f"tools {by_stem[stem].name if stem in by_stem else stem!r} and {tool.name!r} give the same module "
                f"name {stem!r}; rename one of them",
                slug="module_collision",
            )
        by_stem[stem] = tool
    return dict(sorted(by_stem.items()))


def generate(
    toolset: Toolset,
    *,
    package: str | None = None,
    source_path: str | None = None,
    trim: Mapping[str, Trim] | None = None,
) -> dict[str, str]:
    """Generate the package for ``toolset`` as ``{relative_path: text}``; writing the files is the caller's job.

    ``package`` defaults to ``<namespace>_tools``; ``source_path`` is the spec path recorded in the header
    (default: ``toolset.source["path"]``); ``trim`` is keyed by tool name. Security schemes, credentials and
    declarative domain rules come from each tool's contract; a tool with domain checks that are not declarative
    rules (Python callables added with ``with_domain``) is refused rather than generated without them.
    """
    package = package or f"{module_name(toolset.namespace)}_tools"
    if not package.isidentifier() or keyword.iskeyword(package) or not package.isascii():
        raise CodegenError(f"package name {package!r} is not a Python identifier; pick another", slug="bad_package")
    if not toolset.tools:
        raise CodegenError("the toolset has no tools; opt operations in with x-agent-tool first", slug="no_tools")
    unknown = sorted(set(trim or {}) - set(toolset.names))
    if unknown:
        raise CodegenError(f"trim settings name unknown tools {unknown}; the tools are {list(toolset.names)}")
    stems = _stems(toolset.tools)
    recorded = _recorded_path(toolset.source, source_path)
    header = _provenance(toolset.source, recorded)
    source = {k: str(v) for k, v in toolset.source.items() if k in ("sha256", "openapi", "title", "version")}
    source["path"] = recorded
    files: dict[str, str] = {f"{package}/py.typed": ""}
    for stem, tool in stems.items():
        settings = (trim or {}).get(tool.name, Trim())
        files[f"{package}/{stem}.py"] = _module(tool, stem, header, settings)
        files[f"{package}/declarations/{stem}.json"] = pretty(tool.declaration)
        rules = _rules(tool)
        files[f"{package}/contracts/{stem}.json"] = _ordered_json(_contract_json(tool, rules))
    files[f"{package}/__init__.py"] = _init(toolset, list(stems), header, source)
    return dict(sorted(files.items()))
