"""The JSON Schema vocabulary every stage reads: a schema document in, answers about it out.

What enters is a JSON Schema (draft 2020-12, or a whole OpenAPI document for its references); what leaves is
what a stage needs to know of it, stated once here so that every stage reads a schema the same way:

* :mod:`._keywords` -- the keyword tables: which keywords hold one subschema, a map or a list of them; which
  apply in place and which to parts of the value; which are annotations; which the validator reads
  (:data:`VALIDATOR_KEYWORDS`); the older drafts' and OpenAPI's spellings (:data:`VOCABULARY`);
* :mod:`._pointers` -- JSON pointers and anchors: the one ``$ref`` reader (:class:`Refs`, :func:`follow`) and
  its slugs (:data:`REF_SLUGS`);
* :mod:`._walk` -- the subschema walker (:func:`subschemas`, :func:`reachable`, :func:`schemas_in`);
* :mod:`._recursion` -- :func:`check_references`: every reference read, left recursion refused;
* :mod:`._types` -- type inference (:func:`schema_types`, :func:`main_type`): one reading of ``type`` plus
  ``nullable``;
* :mod:`._satisfiable` -- schemas no value can satisfy: :func:`contradiction` says why, :func:`repaired` reads
  the unambiguous ones as meant (losses marked :data:`REPAIRED`), :func:`admitted` keeps the ``enum`` members
  the ``type`` accepts, :func:`conditional` tells a place where a contradiction is a condition (``not``/``if``).

A stage that needs a different set of keywords derives it from these tables and says why beside it.
"""

from toolkit._schema._keywords import (
    ANNOTATION_SCHEMAS,
    ANNOTATIONS,
    CORE,
    DEFINITIONS,
    FOR_ANY,
    FOR_ARRAYS,
    FOR_NUMBERS,
    FOR_OBJECTS,
    FOR_STRINGS,
    IN_PLACE_LIST,
    IN_PLACE_MAP,
    IN_PLACE_ONE,
    LEGACY_DEFINITIONS,
    LEGACY_DEPENDENCIES,
    LEGACY_ITEMS,
    LEGACY_ONE,
    NOT_APPLIED,
    OPENAPI,
    PARTS_LIST,
    PARTS_MAP,
    PARTS_ONE,
    REFERENCES,
    REPLACED,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    SHAREABLE_ROOT,
    VALIDATOR_KEYWORDS,
    VOCABULARY,
)
from toolkit._schema._pointers import (
    BAD_REF,
    LEFT_RECURSIVE_REF,
    REF_SLUGS,
    REMOTE_REF,
    UNRESOLVED_REF,
    Refs,
    RefSlug,
    Resolve,
    defs_name,
    follow,
    is_ref_slug,
    tokens,
)
from toolkit._schema._recursion import check_references
from toolkit._schema._satisfiable import REPAIRED, Repair, admitted, conditional, contradiction, repaired
from toolkit._schema._types import TypeSet, main_type, named_types, schema_types
from toolkit._schema._walk import (
    Edge,
    escape,
    has_silent_objects,
    reachable,
    schemas_in,
    silent_on_unlisted,
    subschemas,
    unescape,
)

__all__ = [
    "ANNOTATIONS",
    "ANNOTATION_SCHEMAS",
    "BAD_REF",
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
    "LEFT_RECURSIVE_REF",
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
    "REF_SLUGS",
    "REMOTE_REF",
    "REPAIRED",
    "REPLACED",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "SHAREABLE_ROOT",
    "UNRESOLVED_REF",
    "VALIDATOR_KEYWORDS",
    "VOCABULARY",
    "Edge",
    "RefSlug",
    "Refs",
    "Repair",
    "Resolve",
    "TypeSet",
    "admitted",
    "check_references",
    "conditional",
    "contradiction",
    "defs_name",
    "escape",
    "follow",
    "has_silent_objects",
    "is_ref_slug",
    "main_type",
    "named_types",
    "reachable",
    "repaired",
    "schema_types",
    "schemas_in",
    "silent_on_unlisted",
    "subschemas",
    "tokens",
    "unescape",
]
