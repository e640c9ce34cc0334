"""Display names cannot pass for an AI seat's label, lookalike letters and invisible characters
included, while ordinary names (those that merely start like a level) are kept."""

from __future__ import annotations

import pytest

from cardtable.web.protocol import AI_LEVELS, ai_seat_label, check_name


@pytest.mark.parametrize(
    "name",
    [
        "Casual AI",
        "casual ai",
        "Cаsual AI",  # Cyrillic а
        "Саsual АI",  # Cyrillic С, а and А
        "Casual Al",  # a lower-case L for the I
        "Casual A1",
        "casual-ai",
        "Casual.AI",
        "Cásual AI",  # an accent
        "Ｃａｓｕａｌ ＡＩ",  # full-width forms
        "Mastеr AI",  # Cyrillic е
        "ExpertAI",
    ],
)
def test_a_name_that_reads_as_an_ai_label_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="label of an AI seat"):
        check_name(name)


def test_every_ai_label_is_refused() -> None:
    for level in AI_LEVELS:
        with pytest.raises(ValueError, match="label of an AI seat"):
            check_name(ai_seat_label(level))


@pytest.mark.parametrize("name", ["Ann", "Casual Ann", "Al", "Ali", "Aino", "Master Chief", "Zoë"])
def test_ordinary_names_are_kept(name: str) -> None:
    assert check_name(name) == name


def test_invisible_characters_are_refused() -> None:
    with pytest.raises(ValueError, match="unprintable"):
        check_name("Casual\u200b AI")
