"""The Animus page shows text from a user's card file as Ani-Mayhem's pages do (it is drawn by
the report's shared environment): a name carrying a right-to-left override is isolated, so it
cannot reverse the page around it."""

from __future__ import annotations

from deckkit.report import animus as report
from deckkit.report.render import environment


def test_a_name_with_a_bidi_override_is_isolated() -> None:
    assert report.TEMPLATE in environment().list_templates()  # the Animus page's template
    page = environment().from_string("<td>{{ name }}</td>").render(name="Ka\u202eboom")
    assert "\u2068Ka\u202eboom\u2069" in page  # FSI ... PDI around the name
