"""Docstrings as tool authors really write them, one malformed line (or habit) each.

Each function's docstring breaks some rule of its style the way published tool code does: a stray sentence
under ``Args:``, a forgotten colon, dashes for colons, a NumPy underline of the wrong length, markdown, a
reST field without its colon. :data:`CASES` maps each function to the parameter descriptions a careful
reader takes from it, and to the lines that cannot be read (which are skipped, and cost nothing else).
"""

from __future__ import annotations

from typing import Any

CASES: list[tuple[Any, dict[str, str], tuple[str, ...]]] = []


def case(expected: dict[str, str], skipped: tuple[str, ...] = ()) -> Any:
    def register(fn: Any) -> Any:
        CASES.append((fn, expected, skipped))
        return fn

    return register


@case(
    {
        "term": 'Search term, e.g. "food" or "restaurants". It may also be a business name, such as "Starbucks".',
        "radius": "A suggested search radius in meters.",
    },
    skipped=("Businesses returned in the response may not be strictly within the specified location.",),
)
def business_search(location: str, term: str = "", radius: int = 1000) -> list[str]:
    """
    Make a query to Yelp to find businesses given a location to search.

    Args:
        Businesses returned in the response may not be strictly within the specified location.
        term (str): Search term, e.g. "food" or "restaurants". It may also be a business name, such as "Starbucks".
        radius (int): A suggested search radius in meters.
    """
    return []


@case({}, skipped=("# The id",))
def business_details(id: str) -> dict[str, Any]:
    """
    Make a query to Yelp to find a business using an id from business_search.

    Args:
        # The id
    """
    return {}


@case({"query": "The text to search for.", "limit": "how many results", "offset": "Where to start."})
def search_notes(query: str, limit: int = 10, offset: int = 0) -> list[str]:
    """Search the notes.

    Args:
        query: The text to search for.
        limit - how many results
        offset: Where to start.
    """
    return []


@case({"city": "City name", "units": "metric or imperial"})
def weather(city: str, units: str = "metric") -> str:
    """Current weather for a city.

    Args:
        city - City name
        units -- metric or imperial
    """
    return ""


@case({"path": "File to read, relative to the workspace root and never absolute.", "mode": "Read mode."})
def read_file(path: str, mode: str = "text") -> str:
    """Read a file from the workspace.

    Args:
        path: File to read, relative to the workspace root
        and never absolute.
        mode: Read mode.
    """
    return ""


@case({"user_id": "The user.", "tags": "Labels to attach."})
def tag_user(user_id: str, tags: list[str]) -> None:
    """Tag a user.

    Args:
        user_id (str, optional): The user.
        tags (list of str): Labels to attach.
    """


@case({"a": "The first addend."})
def add_one(a: int) -> int:
    """Add one to a number.

    Args:
        a: The first addend.
        b: A parameter that was removed from the signature long ago.
    """
    return a + 1


@case({"x": "The x coordinate.", "y": "The y coordinate."})
def move_missing_underline(x: int, y: int) -> None:
    """Move the cursor.

    Parameters
    x : int
        The x coordinate.
    y : int
        The y coordinate.
    """


@case({"x": "The x coordinate.", "y": "The y coordinate."})
def move_short_underline(x: int, y: int) -> None:
    """Move the cursor.

    Parameters
    ---
    x : int
        The x coordinate.
    y : int
        The y coordinate.
    """


@case({"x": "The x coordinate.", "y": "The y coordinate."})
def move_no_space_before_colon(x: int, y: int) -> None:
    """Move the cursor.

    Parameters
    ----------
    x: int
        The x coordinate.
    y:int
        The y coordinate.
    """


@case({"a": "First value.", "b": "Second value."})
def add_rest_missing_colon(a: int, b: int) -> int:
    """Add two numbers.

    :param a First value.
    :param b: Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_rest_typed(a: int, b: int) -> int:
    """Add two numbers.

    :param int a: First value.
    :param b: Second value.
    :type b: int
    :returns: the sum
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_epydoc(a: int, b: int) -> int:
    """Add two numbers.

    @param a: First value.
    @param b: Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_mixed_styles(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        a: First value.
    :param b: Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_lowercase_header(a: int, b: int) -> int:
    """Add two numbers.

    arguments
        a: First value.
        b: Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_bullets(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        - a: First value.
        - b: Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_markdown(a: int, b: int) -> int:
    """Add two numbers.

    **Args:**
    - `a` (int): First value.
    - `b` (int): Second value.
    """
    return a + b


@case({"a": "First value.", "b": "Second value."})
def add_keyword_args(a: int, b: int = 0) -> int:
    """Add two numbers.

    Args:
        a: First value.

    Keyword Args:
        b: Second value.
    """
    return a + b


@case({"url": "Target, e.g. https://example.com:8080/path"})
def fetch(url: str) -> str:
    """Fetch a page.

    Args:
        url: Target, e.g. https://example.com:8080/path
    """
    return ""


@case({"a": "First value.", "b": "Second value."})
def add_tabs(a: int, b: int) -> int:
    return a + b


add_tabs.__doc__ = "Add two numbers.\n\n\tArgs:\n\t\ta: First value.\n\t\tb: Second value.\n\t"


@case({"a": "First value."})
def add_with_returns(a: int) -> int:
    """Add one.

    Args:
        a: First value.

    Returns:
        total: the sum of everything.

    Raises:
        ValueError: if a is negative.
    """
    return a + 1


@case({"a": "First value.", "b": "Second value."}, skipped=("Note that b is optional.",))
def add_stray_note(a: int, b: int = 0) -> int:
    """Add two numbers.

    Args:
        a: First value.
        Note that b is optional.
        b: Second value.

    Example:
        >>> add_stray_note(a=1, b=2)
        3
    """
    return a + b


@case({"x": "Input array, may be empty.", "flag": "Whether to flip."})
def flip(x: list[int], flag: bool = True) -> list[int]:
    """Flip a list.

    Parameters
    ----------
    x : list of int
        Input array,
        may be empty.
    flag : bool, optional
        Whether to flip.

    Returns
    -------
    list of int
        The result.
    """
    return x


@case({"query": "Words to look for.", "limit": "How many results."}, skipped=("See the search guide for the syntax.",))
def search_guide(query: str, limit: int = 5) -> list[str]:
    """Search the knowledge base.

    Parameters:
        See the search guide for the syntax.
        query: Words to look for.
        limit: How many results.
    """
    return []


@case({"repo": "Repository as owner/name.", "state": "open, closed or all."})
def list_issues(repo: str, state: str = "open") -> list[str]:
    """List a repository's issues.

    Args:
        repo: Repository as owner/name.
        state: open, closed or all.
    Returns:
        The issue titles.
    """
    return []


@case({"order_id": "The order to cancel.", "reason": "Why, in the customer's words."})
def cancel(order_id: str, reason: str = "") -> None:
    """Args:
    order_id: The order to cancel.
    reason: Why, in the customer's words.
    """
