"""Typed errors. Every rule error names the rule it enforces, as in `R10: ...`."""

from __future__ import annotations


class Exact61Error(Exception):
    """Base of every error this package raises on purpose."""


class RuleError(Exact61Error, ValueError):
    """Something the rules (R1-R31, as `exact61 rules` prints them) do not allow. `rule` is the
    rule's number."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{rule}: {message}")


class IllegalMoveError(RuleError):
    """An action the seat may not take in this position."""


class RecordError(Exact61Error, ValueError):
    """A match record that cannot be read or does not replay.

    `match`, `round` and `action` locate the problem (0-based indices; None where unknown or not
    applicable). `str()` gives a one-line message with the location first.
    """

    def __init__(
        self,
        message: str,
        *,
        match: int | None = None,
        round: int | None = None,
        action: int | None = None,
    ) -> None:
        self.message = message
        self.match = match
        self.round = round
        self.action = action
        super().__init__(self._text())

    def _text(self) -> str:
        where = [
            f"{name} {value}"
            for name, value in (
                ("match", self.match),
                ("round", self.round),
                ("action", self.action),
            )
            if value is not None
        ]
        return (", ".join(where) + ": " if where else "") + self.message

    def located(self, *, match: int | None = None) -> RecordError:
        """The same error with the match index filled in."""
        err = type(self)(self.message, match=match, round=self.round, action=self.action)
        return err

    def __reduce__(self) -> tuple[object, ...]:  # keep the location across pickling
        return (_rebuild, (type(self), self.message, self.match, self.round, self.action))


def _rebuild(
    cls: type[RecordError], message: str, match: int | None, round: int | None, action: int | None
) -> RecordError:
    return cls(message, match=match, round=round, action=action)


class RecordFormatError(RecordError):
    """The record is not a well-formed `exact61-match/1` object.

    Beside the message (English), what is wrong, for the edges to say in the reader's language:
    `problem` is "json" (not JSON at all; `value`: the parser's words), "object" (not an
    object), "missing" (a required field), "value" (a value the format does not allow: `value`),
    "number", "text", "list" (a value of another kind than the format's) or "other"; `field` is
    the field's dotted path inside its round or action ("" for the record itself).
    """

    def __init__(
        self,
        message: str,
        *,
        problem: str = "other",
        field: str = "",
        value: str = "",
        **where: int | None,  # match, round, action: as RecordError's
    ) -> None:
        self.problem = problem
        self.field = field
        self.value = value
        super().__init__(message, **where)

    def located(self, *, match: int | None = None) -> RecordError:
        return RecordFormatError(
            self.message,
            match=match,
            round=self.round,
            action=self.action,
            problem=self.problem,
            field=self.field,
            value=self.value,
        )

    def __reduce__(self) -> tuple[object, ...]:  # keep what is wrong across pickling
        fields = (self.problem, self.field, self.value)
        return (_rebuild_format, (self.message, self.match, self.round, self.action, *fields))


def _rebuild_format(
    message: str,
    match: int | None,
    round: int | None,
    action: int | None,
    problem: str,
    field: str,
    value: str,
) -> RecordFormatError:
    return RecordFormatError(
        message, match=match, round=round, action=action, problem=problem, field=field, value=value
    )


class ReplayError(RecordError):
    """The record is well formed but disagrees with the rules when replayed."""
