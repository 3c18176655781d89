"""The keyword tables: where a schema holds subschemas, what each keyword reads, which older spellings exist.

Draft 2020-12 is the pivot every stage reads. Its keywords that hold subschemas are grouped twice over: by the
shape of the value (one subschema, a map of them, a list of them) and by what the subschema applies to:

* **in place** -- the same value as the schema that holds it (``allOf`` ..., ``not``, ``if``/``then``/``else``,
  ``dependentSchemas``, and the references ``$ref`` / ``$dynamicRef``);
* **to parts** -- a property or an item of the value (``properties``, ``items``, ``contains`` ...): each step
  reads a smaller part, which is why recursion through them is well founded;
* **never applied** -- ``$defs`` (and draft-07's ``definitions``, read as a legacy ``$defs``) only hold schemas
  for references to name; ``contentSchema`` is an annotation about a string's decoded content.

:data:`SCHEMA_ONE`, :data:`SCHEMA_MAP` and :data:`SCHEMA_LIST` are every position a 2020-12 document (plus
``definitions``) holds a schema at: the walker, the anchor finder and every copy of a schema use them. The
older spellings a stage may meet in an input it accepts are named apart (:data:`LEGACY_ONE`,
:data:`LEGACY_ITEMS`, :data:`LEGACY_DEPENDENCIES`, :data:`REPLACED`), so a stage that reads them says so.

:data:`VALIDATOR_KEYWORDS` is every keyword the validator reads, each under the type of value it constrains
(:data:`FOR_ANY`, :data:`FOR_OBJECTS`, :data:`FOR_ARRAYS`, :data:`FOR_STRINGS`, :data:`FOR_NUMBERS`).
:data:`VOCABULARY` is every keyword toolkit knows by name (2020-12, draft-07's spellings and OpenAPI's), the
set a dialect's catalogue must give a place to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = [
    "ANNOTATIONS",
    "ANNOTATION_SCHEMAS",
    "CORE",
    "DEFINITIONS",
    "FOR_ANY",
    "FOR_ARRAYS",
    "FOR_NUMBERS",
    "FOR_OBJECTS",
    "FOR_STRINGS",
    "IN_PLACE_LIST",
    "IN_PLACE_MAP",
    "IN_PLACE_ONE",
    "LEGACY_DEFINITIONS",
    "LEGACY_DEPENDENCIES",
    "LEGACY_ITEMS",
    "LEGACY_ONE",
    "NOT_APPLIED",
    "OPENAPI",
    "PARTS_LIST",
    "PARTS_MAP",
    "PARTS_ONE",
    "REFERENCES",
    "REPLACED",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "VALIDATOR_KEYWORDS",
    "VOCABULARY",
]

# -- keywords that hold subschemas (the order is the walker's order) --------------------------------------
REFERENCES: Final = ("$ref", "$dynamicRef")
"""Keywords that name a schema to apply in place (the whole document is one resource: both read alike)."""
IN_PLACE_ONE: Final = ("not", "if", "then", "else")
"""Keywords whose one subschema applies to the same value (``then``/``else`` only beside an ``if``)."""
IN_PLACE_LIST: Final = ("anyOf", "oneOf", "allOf")
"""Keywords whose list of subschemas applies to the same value."""
IN_PLACE_MAP: Final = ("dependentSchemas",)
"""Keywords whose map of subschemas applies to the same value (when the named property is present)."""
PARTS_ONE: Final = (
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
)
"""Keywords whose one subschema applies to parts of the value (properties, items, names)."""
PARTS_MAP: Final = ("properties", "patternProperties")
"""Keywords whose map of subschemas applies to properties of the value."""
PARTS_LIST: Final = ("prefixItems",)
"""Keywords whose list of subschemas applies to items of the value, one each."""
LEGACY_DEFINITIONS: Final = "definitions"
"""Draft-07's name for ``$defs``: not a 2020-12 keyword, read wherever ``$defs`` is as a legacy ``$defs``."""
DEFINITIONS: Final = ("$defs", LEGACY_DEFINITIONS)
"""Maps of schemas that only references read: ``$defs``, and draft-07's ``definitions`` as a legacy ``$defs``."""
ANNOTATION_SCHEMAS: Final = ("contentSchema",)
"""Subschemas that annotate and are never applied to the value (``contentSchema`` describes decoded content)."""
NOT_APPLIED: Final = frozenset((*DEFINITIONS, *ANNOTATION_SCHEMAS))
"""Keywords holding schemas that are never applied where they stand (reached, if at all, through a reference)."""

SCHEMA_ONE: Final = (*PARTS_ONE, *IN_PLACE_ONE, *ANNOTATION_SCHEMAS)
"""Keywords whose value is one subschema."""
SCHEMA_MAP: Final = (*PARTS_MAP, *DEFINITIONS, *IN_PLACE_MAP)
"""Keywords whose value maps names to subschemas."""
SCHEMA_LIST: Final = (*IN_PLACE_LIST, *PARTS_LIST)
"""Keywords whose value is a list of subschemas."""

# -- older spellings --------------------------------------------------------------------------------------
LEGACY_ONE: Final = ("additionalItems",)
"""Draft-07 keywords whose value is one subschema (2020-12 reads ``prefixItems`` and ``items`` instead)."""
LEGACY_ITEMS: Final = "items"
"""Draft-07 wrote a tuple as ``items: [...]`` (a list of subschemas); 2020-12 calls it ``prefixItems``."""
LEGACY_DEPENDENCIES: Final = "dependencies"
"""Draft-07's map from a property to a subschema or to a list of names (2020-12 split it in two)."""
REPLACED: Final[Mapping[str, str]] = {
    LEGACY_DEPENDENCIES: "2020-12 split it in two: use dependentRequired (a list of names) or dependentSchemas "
    "(a schema)",
    "additionalItems": "2020-12 reads prefixItems for the first items and items for the rest: use items",
    "$recursiveRef": "2020-12 replaced it with $dynamicRef (with $dynamicAnchor)",
    "$recursiveAnchor": "2020-12 replaced it with $dynamicAnchor (with $dynamicRef)",
}
"""Keywords of older drafts that 2020-12 replaced, and what replaced each."""

# -- what each keyword constrains --------------------------------------------------------------------------
FOR_ANY: Final = frozenset({"type", "nullable", "enum", "const", "format", *REFERENCES, *IN_PLACE_ONE, *IN_PLACE_LIST})
"""Validator keywords that read a value of any type (``format`` names string formats and a few numeric ones)."""
FOR_OBJECTS: Final = frozenset(
    {*PARTS_MAP, "additionalProperties", "propertyNames", "unevaluatedProperties", *IN_PLACE_MAP}
) | {"required", "dependentRequired", "minProperties", "maxProperties"}
"""Validator keywords that constrain objects only."""
FOR_ARRAYS: Final = frozenset({"items", *PARTS_LIST, "contains", "unevaluatedItems"}) | {
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
}
"""Validator keywords that constrain arrays only."""
FOR_STRINGS: Final = frozenset({"minLength", "maxLength", "pattern"})
"""Validator keywords that constrain strings only."""
FOR_NUMBERS: Final = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
"""Validator keywords that constrain numbers only."""
VALIDATOR_KEYWORDS: Final = FOR_ANY | FOR_OBJECTS | FOR_ARRAYS | FOR_STRINGS | FOR_NUMBERS
"""Every keyword the validator reads (besides the annotations ``description``, ``default`` and ``readOnly``)."""

SHAREABLE_ROOT: Final = frozenset(
    {"type", "properties", "required", "additionalProperties", "$defs", "description", "title"}
)
"""The keywords a root schema may hold and still be shared between tools (its lowering and its lints): the root
is then its own only container, and its fields are its properties' fields, in order."""

# -- everything else toolkit knows by name ----------------------------------------------------------------
CORE: Final = frozenset({"$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment"})
"""2020-12's core keywords besides the references and ``$defs``: identifiers, anchors and comments."""
ANNOTATIONS: Final = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly"}) | {
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
}
"""2020-12's annotations that hold no schema: they describe a value and never reject one."""
OPENAPI: Final = frozenset({"nullable", "example", "discriminator", "xml", "externalDocs"})
"""OpenAPI's own schema keywords (``nullable`` is 3.0's null; the validator reads it as the declaration does)."""
VOCABULARY: Final = (
    VALIDATOR_KEYWORDS
    | CORE
    | ANNOTATIONS
    | OPENAPI
    | frozenset((*DEFINITIONS, *ANNOTATION_SCHEMAS, *LEGACY_ONE, LEGACY_DEPENDENCIES))
)
"""Every keyword toolkit knows by name: 2020-12's, the draft-07 spellings still met in the wild and OpenAPI's
(2019-09's ``$recursiveRef``/``$recursiveAnchor`` are not among them: no stage reads them, some refuse them)."""
