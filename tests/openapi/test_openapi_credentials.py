"""The credential rule: parameters that carry a secret leave the arguments and are recorded on the tool.

Each crafted case below passed into declarations before the rule; the sweep over the real corpus is in
tests/openapi/test_corpus_sweep.py. What is recorded (name, location, reason, configuration key, environment variable)
is what the runtime fills and the summary shows.

Internals: the credential record's ``REASONS`` and ``env_name``, and the display's ``tool_text``/``filled_rows``
that show what was recorded.
"""

from __future__ import annotations

from typing import Any

import pytest
from credential_oracle import leaked_credentials

import toolkit as tk
from toolkit._credential_record import REASONS, env_name
from toolkit._display._core import filled_rows, tool_text

STRING = {"type": "string"}


def _spec(
    parameters: list[dict[str, Any]] | None = None,
    *,
    schemes: dict[str, Any] | None = None,
    security: list[dict[str, Any]] | None = None,
    body: dict[str, Any] | None = None,
    media: str = "application/json",
    extension: Any = True,
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": "op",
        "description": "Do it.",
        "x-agent-tool": extension,
        "parameters": parameters or [],
    }
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {media: {"schema": body}}}
    spec: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"post": operation}},
    }
    if schemes is not None:
        spec["components"] = {"securitySchemes": schemes}
    if security is not None:
        spec["security"] = security
    return spec


def _tool(spec: dict[str, Any], overrides: Any = None) -> tk.Tool:
    toolset = tk.from_openapi(spec, "acme", overrides=overrides)
    assert toolset.rejected == (), toolset.rejected
    return toolset["op"]


def _param(name: str, location: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "in": location, "schema": extra.pop("schema", STRING), **extra}


def _taken(tool: tk.Tool) -> list[tuple[str, str, str, str | None]]:
    return [(c.name, c.location, c.reason, c.scheme) for c in tool.contract.credentials]


def _wire(tool: tk.Tool) -> set[str]:
    """The names on the wire the model can set."""
    return {(where.partition(".")[2] or argument) for argument, where in tool.binding.items()}


@pytest.mark.parametrize(
    ("parameter", "reason"),
    [
        (_param("X-API-Key", "header"), "credential_name"),
        (_param("X-Auth-Token", "header"), "credential_name"),
        (_param("X-Vault-Token", "header"), "credential_name"),
        (_param("api_key", "query"), "credential_name"),
        (_param("apiKey", "query"), "credential_name"),
        (_param("token", "query"), "credential_name"),
        (_param("client_secret", "query"), "credential_name"),
        (_param("password", "header"), "credential_name"),
        (_param("user_access_token", "query"), "credential_name"),
        (_param("session_token", "cookie"), "credential_name"),
        (_param("Authorization", "header"), "auth_header"),
        (_param("Proxy-Authorization", "header"), "auth_header"),
        (_param("Cookie", "header"), "auth_header"),
        (_param("auth", "query", description="Authentication token. Requires scope: read"), "credential_description"),
        (_param("k", "header", description="Your API key, from the dashboard."), "credential_description"),
    ],
    ids=lambda value: value["name"] if isinstance(value, dict) else value,
)
def test_a_credential_parameter_leaves_the_arguments(parameter: dict[str, Any], reason: str) -> None:
    tool = _tool(_spec([parameter, _param("q", "query")]))
    assert _wire(tool) == {"q"}
    assert _taken(tool) == [(parameter["name"], parameter["in"], reason, None)]
    assert tool.contract.credentials[0].env == env_name("acme", parameter["name"])


@pytest.mark.parametrize(
    "parameter",
    [
        _param("token_count", "query", schema={"type": "integer"}),
        _param("page_token", "query"),
        _param("next_page_token", "query"),
        _param("nextPageToken", "query"),
        _param("PageToken", "query"),
        _param("X-Page-Token", "header"),
        _param("api_key_ids", "query"),
        _param("max_tokens", "query", schema={"type": "integer"}),
        _param("tokenizer", "query"),
        _param("key", "query"),
        _param("token", "path", required=True),
        _param("name", "query", description="API key name."),
        _param("token_id", "query", description="The access token ID to revoke."),
        _param("token", "query", schema={"type": "integer"}),
    ],
    ids=lambda value: f"{value['in']}-{value['name']}",
)
def test_a_parameter_that_only_looks_like_a_credential_stays(parameter: dict[str, Any]) -> None:
    path = "/x/{token}" if parameter["in"] == "path" else "/x"
    spec = _spec([parameter])
    spec["paths"] = {path: spec["paths"]["/x"]}
    tool = _tool(spec)
    assert tool.contract.credentials == ()
    assert _wire(tool) == {parameter["name"]}


def test_access_token_under_an_oauth2_scheme_is_that_schemes_token() -> None:
    schemes = {"oauth": {"type": "oauth2", "flows": {}}}
    tool = _tool(_spec([_param("access_token", "query")], schemes=schemes, security=[{"oauth": []}]))
    assert _taken(tool) == [("access_token", "query", "bearer_access_token", "oauth")]
    assert tool.contract.credentials[0].key == "oauth"
    ((name, location, _, source),) = [row for row in filled_rows(tool) if row[0] == "access_token"]
    assert (name, location, source) == ("access_token", "query", "scheme 'oauth'")


@pytest.mark.parametrize(
    "scheme", [{"type": "http", "scheme": "bearer"}, {"type": "openIdConnect", "openIdConnectUrl": "https://x"}]
)
def test_access_token_under_a_bearer_or_openid_scheme_is_taken_too(scheme: dict[str, Any]) -> None:
    tool = _tool(_spec([_param("access_token", "query")], schemes={"s": scheme}, security=[{"s": []}]))
    assert _taken(tool) == [("access_token", "query", "bearer_access_token", "s")]


def test_a_key_declared_in_another_location_than_its_scheme_says_is_still_the_key() -> None:
    schemes = {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}
    tool = _tool(_spec([_param("X-Key", "query"), _param("q", "query")], schemes=schemes, security=[{"key": []}]))
    assert _taken(tool) == [("X-Key", "query", "security_scheme", "key")]
    assert _wire(tool) == {"q"}


def test_a_scheme_in_any_letter_case_and_with_spaces_around_its_name_is_read() -> None:
    schemes = {"key ": {"type": "APIKEY", "in": "Header", "name": " X-Key "}}
    tool = _tool(_spec([_param("x-key", "header")], schemes=schemes, security=[{"key": []}]))
    assert _taken(tool) == [("x-key", "header", "security_scheme", "key")]
    (scheme,) = tool.contract.security
    assert (scheme.key, scheme.kind, scheme.location, scheme.name) == ("key", "api_key", "header", "X-Key")
    assert scheme.env == "ACME_KEY"


def test_a_body_field_named_like_the_schemes_key_leaves_the_body() -> None:
    schemes = {"key": {"type": "apiKey", "in": "query", "name": "app_key"}}
    body = {"type": "object", "required": ["app_key", "n"], "properties": {"app_key": STRING, "n": STRING}}
    tool = _tool(_spec(schemes=schemes, security=[{"key": []}], body=body))
    assert tool.binding == {"n": "body.n"}
    assert tool.args_schema["required"] == ["n"]
    assert _taken(tool) == [("app_key", "body", "security_scheme", "key")]
    assert tool.contract.credentials[0].required


def test_a_strong_name_leaves_a_json_body_but_a_weak_one_stays() -> None:
    body = {
        "type": "object",
        "properties": {"client_secret": STRING, "password": STRING, "token": STRING, "config": {"type": "object"}},
    }
    tool = _tool(_spec(body=body))
    assert set(tool.binding) == {"password", "token", "config"}
    assert _taken(tool) == [("client_secret", "body", "credential_name", None)]


def test_an_object_named_like_a_credential_is_its_configuration_and_stays() -> None:
    body = {"type": "object", "properties": {"client_secret": {"type": "object", "properties": {"ttl": STRING}}}}
    assert _tool(_spec(body=body)).contract.credentials == ()


def test_a_body_left_with_no_field_is_left_out() -> None:
    body = {"type": "object", "additionalProperties": False, "properties": {"client_secret": STRING}}
    tool = _tool(_spec(body=body, media="application/x-www-form-urlencoded"))
    assert tool.binding == {}
    assert tool.contract.form == {}
    assert _taken(tool) == [("client_secret", "body", "credential_name", None)]


def test_a_body_behind_a_reference_loses_its_credential_fields_only_here() -> None:
    spec = _spec(body={"$ref": "#/components/schemas/Login"})
    login = {"type": "object", "properties": {"api_key": STRING, "user": {"$ref": "#/components/schemas/User"}}}
    spec["components"] = {"schemas": {"Login": login, "User": {"type": "object", "properties": {"id": STRING}}}}
    tool = _tool(spec)
    assert tool.binding == {"user": "body.user"}
    assert set(tool.args_schema.get("$defs", {})) == {"User"}
    assert tool.validate({"user": {"id": "u"}}).ok


def test_a_cookie_that_is_no_credential_is_still_left_out_with_a_loss() -> None:
    tool = _tool(_spec([_param("theme", "cookie"), _param("sid", "cookie")]))
    assert tool.binding == {}
    assert [loss.value for loss in tool.losses if loss.keyword == "parameter"] == ["cookie.theme", "cookie.sid"]


def test_swagger2_form_fields_and_query_keys_are_read_too() -> None:
    spec = {
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "securityDefinitions": {"slack": {"type": "oauth2", "flow": "accessCode", "authorizationUrl": "https://x"}},
        "security": [{"slack": []}],
        "paths": {
            "/chat.post": {
                "post": {
                    "operationId": "op",
                    "description": "Post a message.",
                    "consumes": ["application/x-www-form-urlencoded"],
                    "parameters": [
                        {"name": "token", "in": "formData", "type": "string", "description": "Authentication token."},
                        {"name": "channel", "in": "formData", "type": "string", "required": True},
                        {"name": "access_token", "in": "query", "type": "string"},
                    ],
                }
            }
        },
    }
    tool = tk.from_openapi(spec, "slack", select="all")["op"]
    assert tool.binding == {"channel": "body.channel"}
    assert _taken(tool) == [
        ("access_token", "query", "bearer_access_token", "slack"),
        ("token", "body", "credential_description", None),
    ]
    assert [c.env for c in tool.contract.credentials] == ["SLACK_SLACK", "SLACK_TOKEN"]


# -- the idempotency key --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Idempotency-Key", "X-Idempotency-Key", "idempotency_key"])
def test_an_idempotency_key_header_is_the_runtimes(name: str) -> None:
    tool = _tool(_spec([_param(name, "header", required=True), _param("q", "query")]))
    assert _wire(tool) == {"q"}
    assert tool.contract.idempotency_key == f"header.{name}"
    assert tool.contract.credentials == ()
    assert (name, "header", "the operation's idempotency key", "the ledger's dedupe key") in filled_rows(tool)


def test_an_idempotency_key_form_field_is_the_runtimes_too() -> None:
    body = {"type": "object", "properties": {"IdempotencyKey": STRING, "Amount": STRING}}
    tool = _tool(_spec(body=body, media="application/x-www-form-urlencoded"))
    assert tool.binding == {"Amount": "body.Amount"}
    assert tool.contract.idempotency_key == "body.IdempotencyKey"


# -- the author's word ----------------------------------------------------------------------------------
def test_keep_in_the_overrides_leaves_a_parameter_to_the_model() -> None:
    spec = _spec([_param("token", "query"), _param("Idempotency-Key", "header")], extension=None)
    tool = _tool(spec, overrides={"op": {"credentials": {"keep": ["token", "idempotency-key"]}}})
    assert _wire(tool) == {"token", "Idempotency-Key"}
    assert tool.contract.credentials == ()
    assert tool.contract.idempotency_key is None


def test_secret_in_the_extension_takes_out_a_parameter_the_rule_misses() -> None:
    tool = _tool(_spec([_param("sid", "query"), _param("q", "query")], extension={"credentials": {"secret": ["SID"]}}))
    assert _wire(tool) == {"q"}
    assert _taken(tool) == [("sid", "query", "declared", None)]
    assert REASONS["declared"].startswith("the overrides or x-agent-tool")


def test_the_overrides_win_over_the_extension() -> None:
    spec = _spec([_param("token", "query")], extension={"credentials": {"keep": ["nothing_here"]}})
    tool = _tool(spec, overrides={"op": {"credentials": {"keep": ["token"]}}})
    assert _wire(tool) == {"token"}


@pytest.mark.parametrize(
    "value",
    [
        ["token"],
        {"keep": "token"},
        {"keep": [1]},
        {"keep": [""]},
        {"drop": ["token"]},
        {"keep": ["token"], "secret": ["token"]},
    ],
    ids=["a-list", "a-string", "a-number", "an-empty-name", "an-unknown-key", "both"],
)
@pytest.mark.parametrize("where", ["overrides", "extension"])
def test_a_malformed_credentials_option_is_bad_overrides(value: Any, where: str) -> None:
    spec = _spec([_param("token", "query")], extension={"credentials": value} if where == "extension" else None)
    overrides = {"op": {"credentials": value}} if where == "overrides" else None
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(spec, "acme", overrides=overrides)
    assert caught.value.slug == "bad_overrides"
    assert "credentials" in caught.value.message


@pytest.mark.parametrize("option", [{"keep": ["tokn"]}, {"secret": ["page"]}], ids=["keep", "secret"])
def test_a_credentials_option_naming_no_parameter_is_bad_overrides(option: dict[str, Any]) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(_spec([_param("token", "query")]), "acme", overrides={"op": {"credentials": option}})
    assert caught.value.slug == "bad_overrides"
    assert "fix the name or drop the entry" in caught.value.message


# -- what is shown ----------------------------------------------------------------------------------------
def test_the_summary_shows_each_credential_where_it_goes_why_and_its_variable() -> None:
    schemes = {"bearerAuth": {"type": "http", "scheme": "bearer"}}
    spec = _spec([_param("X-Auth-Token", "header", required=True)], schemes=schemes, security=[{"bearerAuth": []}])
    tool = _tool(spec)
    assert filled_rows(tool) == [
        ("Authorization", "header", "bearer scheme 'bearerAuth'", "$ACME_BEARER_AUTH"),
        ("X-Auth-Token", "header", "the name is the credential word 'authtoken' (required)", "$ACME_X_AUTH_TOKEN"),
    ]
    text = tool_text(tool)
    assert "filled at run time, never by the model:" in text
    assert "$ACME_X_AUTH_TOKEN" in text
    assert "Filled at run time" in tool._repr_mimebundle_()["text/html"]


def test_a_credential_record_says_what_where_and_why() -> None:
    (credential,) = _tool(_spec([_param("X-API-Key", "header", required=True)])).contract.credentials
    assert credential.to_dict() == {
        "name": "X-API-Key",
        "location": "header",
        "reason": "credential_name",
        "detail": "the name is the credential word 'apikey'",
        "key": "X-API-Key",
        "env": "ACME_X_API_KEY",
        "scheme": None,
        "required": True,
    }


def test_a_parameter_for_a_scheme_s_own_header_is_one_row_with_the_scheme() -> None:
    schemes = {"apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}
    spec = _spec([_param("X-API-Key", "header", required=True)], schemes=schemes, security=[{"apiKey": []}])
    assert filled_rows(_tool(spec)) == [
        (
            "X-API-Key",
            "header",
            "api key scheme 'apiKey'; the spec's parameter of that name is taken out of the arguments",
            "$ACME_API_KEY",
        )
    ]


STRINGS = {"type": "array", "items": STRING}
SEVERAL = [
    ("access_tokens", STRINGS),  # Plaid /asset_report/create
    ("access_tokens", {"type": "object", "additionalProperties": STRING}),  # DigitalOcean: provider → token
    ("access_tokens", {"type": "object", "properties": {"openai": STRING, "anthropic": STRING}}),
    ("api_keys", STRINGS),
    ("accessTokens", {"type": "array", "items": {"type": "object", "properties": {"token": STRING, "team": STRING}}}),
]


@pytest.mark.parametrize(("name", "schema"), SEVERAL, ids=lambda value: value if isinstance(value, str) else "")
def test_an_array_or_a_map_of_credentials_is_a_credential(name: str, schema: dict[str, Any]) -> None:
    body = {"type": "object", "properties": {name: schema, "days_requested": {"type": "integer"}}}
    tool = _tool(_spec(body=body))
    assert set(tool.binding) == {"days_requested"}
    ((taken, location, reason, _),) = _taken(tool)
    assert (taken, location, reason) == (name, "body", "credential_name")
    assert "plural" in tool.contract.credentials[0].detail
    assert leaked_credentials(tool, frozenset()) == []


def test_a_plural_name_holding_no_credential_text_stays() -> None:
    body = {
        "type": "object",
        "properties": {
            "access_tokens": {"type": "integer"},
            "api_keys": {"type": "array", "items": {"type": "integer"}},
        },
    }
    tool = _tool(_spec(body=body))
    assert tool.contract.credentials == ()
    assert set(tool.binding) == {"access_tokens", "api_keys"}


MENTIONING = [
    _param("key_alias", "query", description="API key alias, shown in the dashboard."),  # LiteLLM
    _param("refresh_interval", "query", description="Auth token cache TTL in seconds."),  # LiteLLM
    _param("changed_by_api_key", "query", description="Filter by the hash of the API key that made the change."),
    _param("token_ttl", "query", description="Access token lifetime in seconds."),
    _param("api_key_hash", "query", description="API key hash."),
    _param("api_key_id", "query", description="The API key's id."),
    _param("created_by_access_token", "query"),
    _param("api_key", "query", description="Filter the audit log by this API key (its hash)."),
    _param("token", "header", description="Identifier of the token to revoke."),
]


@pytest.mark.parametrize("parameter", MENTIONING, ids=lambda value: f"{value['in']}-{value['name']}")
def test_a_name_or_description_that_only_mentions_a_credential_stays(parameter: dict[str, Any]) -> None:
    tool = _tool(_spec([parameter]))
    assert tool.contract.credentials == ()
    assert _wire(tool) == {parameter["name"]}
    assert leaked_credentials(tool, frozenset()) == []  # the independent oracle agrees


def test_an_api_key_named_filter_is_an_argument_not_the_callers_key() -> None:
    """A filter named like a credential is the model's to set: were it taken out, the runtime would send the
    caller's own key as the filter value."""
    schemes = {"key": {"type": "apiKey", "in": "header", "name": "Authorization"}}
    parameter = _param("api_key", "query", description="Filter the audit log by this API key (its hash).")
    tool = _tool(_spec([parameter], schemes=schemes, security=[{"key": []}]))
    assert tool.binding == {"api_key": "query"}
    assert [scheme.key for scheme in tool.contract.security] == ["key"]
