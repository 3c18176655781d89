"""The validator's fast tier: a compiled form of the interpreter's own checks, for the calls most tools see.

One definition (:mod:`~toolkit._validation._fastpath._predicates`) says which schema nodes the tier answers
and writes, for each, a *plain test*: a Python expression true exactly when the interpreter would pass the
value unchanged and silent. Two engines compile that text:

* :func:`fast_path` (:mod:`~toolkit._validation._fastpath._root`) writes one function for a root object whose
  properties are all in the subset; it answers a whole call (the ``ok`` envelope, defaults filled, or, through
  :mod:`~toolkit._validation._fastpath._invalid`, the interpreter's invalid envelope), or declines with ``None``;
* :func:`property_predicate` makes a property's plain test a function: the shortcut the interpreter's object
  checks try on a value before its compiled check, at any depth.

Neither states a rule of its own: the words of every error are the interpreter's, called from here.
"""

from toolkit._validation._fastpath._predicates import fast_array_predicate, fast_predicate, property_predicate
from toolkit._validation._fastpath._root import FastPath, fast_path

__all__ = ["FastPath", "fast_array_predicate", "fast_path", "fast_predicate", "property_predicate"]
