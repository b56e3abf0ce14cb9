"""A screen whose keys the footer names in the language in use: Textual reads a class's bindings
once, so each language gets a subclass of its own (`in_language`)."""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypeVar, cast

from textual.binding import BindingType

from exact61 import i18n


class InLanguage:
    """The app, or a screen, whose keys the footer names in the language in use.

    Textual reads a class's BINDINGS once, when the class is made, but the language is known
    only when a game starts. So making one of these makes an instance of a subclass made for
    the language in use (`in_language`), whose BINDINGS are `labelled_bindings()` in it.
    """

    LANGUAGE: ClassVar[str | None] = None  # set on the subclass made for a language

    @classmethod
    def labelled_bindings(cls) -> list[BindingType]:
        """The keys with labels (and any key that is itself a word: yes is "j" in German)."""
        return []

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        return super().__new__(in_language(cls))


Labelled = TypeVar("Labelled", bound=InLanguage)
_MADE: dict[tuple[type[InLanguage], str], type[InLanguage]] = {}


def in_language(cls: type[Labelled]) -> type[Labelled]:
    """`cls` for the language in use: a subclass, made once a language, with the bindings of
    `cls.labelled_bindings()` added (a key bound there replaces the same key of `cls`)."""
    lang = i18n.language()
    if cls.LANGUAGE is not None:  # already a language's subclass
        if lang == cls.LANGUAGE:
            return cls
        cls = cls.__bases__[0]
    made = _MADE.get((cls, lang))
    if made is None:
        made = _MADE[cls, lang] = type(
            cls.__name__,  # the name CSS selects it by
            (cls,),
            {
                "BINDINGS": cls.labelled_bindings(),
                "LANGUAGE": lang,
                "__module__": cls.__module__,  # CSS_PATH is relative to it
                "__qualname__": cls.__qualname__,
                "__doc__": cls.__doc__,
            },
        )
    return cast(type[Labelled], made)
