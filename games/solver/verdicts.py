"""The solver's three verdicts, in a module of their own so that every part of the package
(the race's child process too) spells them from one place without importing the package."""

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
#: The budget was spent (or the search was stopped) before a win or a proof.
UNKNOWN = "unknown"
#: The verdicts that settle a deal (and end a race).
DECIDED = (WINNABLE, UNWINNABLE)
