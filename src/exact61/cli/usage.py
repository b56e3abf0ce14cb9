"""Usage errors and help said in the command's language: a command that takes --lang (`play`,
`rules`, `analyze`, `simulate`, `tournament`, `replay`, `show`, `equity`) says click's errors
from their parts through the catalogs, and its help (-h) too, as `exact61` itself says the list
of commands and its own usage errors in the locale's language; `serve` says click's English
text."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterable, Sequence
from decimal import Decimal

import typer
import typer.main
from pydantic import ValidationError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from exact61 import i18n
from exact61.bots import BOTS, LEVELS
from exact61.cli.app import CliError, app, choose_language
from exact61.i18n import N_, _, ngettext, number

# What pydantic, which checks Typer's values, calls a number out of an option's min= or max=,
# and a value that is no number.
OUT_OF_RANGE = frozenset({"greater_than_equal", "less_than_equal"})
NOT_WHOLE = frozenset({"int_parsing", "int_from_float", "int_type"})
NOT_A_NUMBER = frozenset({"float_parsing", "float_type"})
# click's words for what is left over after the options and arguments (`Context.fail`)
EXTRA_ARGUMENTS = re.compile(r"Got unexpected extra argument\(s\) \((?P<extra>.*)\)", re.DOTALL)
# click's words for a command `exact61` does not have (`Group.resolve_command`)
NO_SUCH_COMMAND = re.compile(r"No such command '(?P<name>.*)'\.", re.DOTALL)


def usage_error(err: TyperException, args: Sequence[str]) -> str:
    """The line that says the usage error `err` of `exact61 ARGS`, with the command and its help:
    `exact61 play: Invalid value for '--players': must be between 2 and 4 (exact61 play -h for
    help)`.

    A command that takes --lang says it wholly in its language, chosen here from ARGS as the
    command chooses it (click's parser finds an unknown option or a missing value before any
    option is read, --lang included), from the parts of click's error: the option, its bounds,
    its choices, the words given. A reason from elsewhere (a callback's, already in that
    language) is kept in that frame, as is click's English text of an error it cannot take
    apart. `exact61` itself says an unknown command or option in the locale's language; the
    other commands (`serve`) say click's English text."""
    context = getattr(err, "ctx", None)
    where = str(getattr(context, "command_path", "exact61"))
    command = _command(context, args)
    language = _language_option(command) if command is not None else None
    message: str | None = None
    if command is not None and language is not None:
        rest = _own_args(command, args)
        _choose_language(language, rest)
        where = f"exact61 {command.name}" if context is None else where
        message = _said(err, command, rest)
    elif command is None:  # `exact61` itself: the locale's language, as its -h lists commands
        with contextlib.suppress(CliError):
            choose_language(None)
        message = _said_by_exact61(err)
    if message is None:
        # Typer checks some values with pydantic, whose words for a ValueError start with
        # "Value error, ": the reason alone reads as the others do.
        message = err.format_message().replace(": Value error, ", ": ")
    return f"{where}: {message} " + _("({command} -h for help)").format(command=where)


def _said_by_exact61(err: TyperException) -> str | None:
    """An error of `exact61` itself (before any command) in the current language: an unknown
    command or option; None for another."""
    option = _no_such_option(err)
    if option is not None:
        return option
    unknown = NO_SUCH_COMMAND.fullmatch(err.format_message())
    if unknown is not None:
        return _("No such command: {command}").format(command=_printable(unknown["name"]))
    return None


def _no_such_option(err: TyperException) -> str | None:
    """click's unknown option (`NoSuchOption`), with the options it may have meant, in the
    current language; None for another error."""
    name = getattr(err, "option_name", None)
    if "NoSuchOption" not in {kind.__name__ for kind in type(err).__mro__}:
        return None
    if not isinstance(name, str):
        return None
    possibilities = sorted(map(str, getattr(err, "possibilities", None) or ()))
    if not possibilities:
        return _("No such option: {option}").format(option=_printable(name))
    return ngettext(
        "No such option: {option}; did you mean {options}?",
        "No such option: {option}; did you mean one of {options}?",
        len(possibilities),
    ).format(option=_printable(name), options=", ".join(possibilities))


def _command(context: object, args: Sequence[str]) -> TyperCommand | None:
    """The command whose usage error it is: its context's, else (the parser's errors come
    without one) the one ARGS name first."""
    if context is not None:
        command = getattr(context, "command", None)
    else:
        group = typer.main.get_command(app)
        named = args[0] if args else ""
        command = group.commands.get(named) if isinstance(group, TyperGroup) else None
    return command if isinstance(command, TyperCommand) else None


def _own_args(command: TyperCommand, args: Sequence[str]) -> list[str]:
    """The words of ARGS after the command's name: its options and arguments."""
    return list(args[args.index(command.name) + 1 :]) if command.name in args else []


def _language_option(command: TyperCommand) -> TyperOption | None:
    """The command's --lang, if it speaks its user's language."""
    return next(
        (p for p in command.params if isinstance(p, TyperOption) and p.name == "lang"), None
    )


def _choose_language(option: TyperOption, args: Sequence[str]) -> None:
    """The language of the command's ARGS as its --lang would choose it: the last value given,
    else the locale's."""
    given: str | None = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if name in option.opts and (equals or i + 1 < len(args)):
            given = value if equals else args[i + 1]
    with contextlib.suppress(CliError):  # an unknown language: the locale's is chosen instead
        choose_language(given)


def _said(err: TyperException, command: TyperCommand, args: Sequence[str]) -> str | None:
    """click's error in the current language from its parts (ARGS: the command's own); None
    for one it does not give."""
    kinds = {kind.__name__ for kind in type(err).__mro__}
    name = getattr(err, "option_name", None)
    unknown = _no_such_option(err)
    if unknown is not None:
        return unknown
    if "BadOptionUsage" in kinds and isinstance(name, str):
        return _bad_option_usage(name, command)
    param = getattr(err, "param", None)
    if isinstance(err, typer.BadParameter) and isinstance(param, TyperOption | TyperArgument):
        hint = _hint(err.param_hint) or param.get_error_hint()
        if "MissingParameter" in kinds:
            kind = getattr(err, "param_type", None) or param.param_type_name
            if err.message or kind not in ("argument", "option"):
                return None
            missing = (
                _("Missing argument {name}") if kind == "argument" else _("Missing option {name}")
            )
            return missing.format(name=hint)
        reason = _reason(err, param) or err.message.removeprefix("Value error, ")
        return _("Invalid value for {option}: {reason}").format(option=hint, reason=reason)
    extra = EXTRA_ARGUMENTS.fullmatch(err.message) if type(err).__name__ == "UsageError" else None
    if extra is not None:
        return ngettext(
            "Got an unexpected extra argument: {arguments}",
            "Got unexpected extra arguments: {arguments}",
            _extra_count(extra["extra"], args),
        ).format(arguments=extra["extra"])
    return None


def _extra_count(extra: str, args: Sequence[str]) -> int:
    """How many arguments click found extra: it says them joined by spaces, so they are the
    words of a run of ARGS that joins to the same text (one argument may hold a space: `"a b"`),
    else as many as the text has words."""
    for start in range(len(args) - 1, -1, -1):
        for end in range(start + 1, len(args) + 1):
            if " ".join(args[start:end]) == extra:
                return end - start
    return len(extra.split())


def _bad_option_usage(name: str, command: TyperCommand) -> str | None:
    """A flag given a value, or an option given none (the parser's two errors of an option)."""
    option = next(
        (
            p
            for p in command.params
            if isinstance(p, TyperOption) and name in (*p.opts, *p.secondary_opts)
        ),
        None,
    )
    if option is None:
        return None
    if option.is_flag or option.count:
        return _("Option {option} takes no value").format(option=repr(name))
    if option.nargs == 1:
        return _("Option {option} needs a value").format(option=repr(name))
    return None


def _reason(err: TyperException, param: TyperOption | TyperArgument) -> str | None:
    """Why pydantic refused the value, which Typer checks with it: out of the option's range,
    not a number, not one of its choices."""
    cause = err.__cause__
    errors = cause.errors() if isinstance(cause, ValidationError) else []
    if not errors:
        return None
    kind, given = errors[0]["type"], errors[0].get("input")
    described = param.type_descriptor
    if kind in OUT_OF_RANGE:  # of the option, or of each of its values (`list[int]`)
        return _in_range(described.parameter_info.min, described.parameter_info.max)
    if kind in NOT_WHOLE:
        return _("{value} is not a whole number").format(value=repr(given))
    if kind in NOT_A_NUMBER:
        return _("{value} is not a number").format(value=repr(given))
    if kind == "value_error" and described.choices:
        choices = ", ".join(repr(str(getattr(c, "value", c))) for c in described.choices)
        return _("{value} is not one of {choices}").format(value=repr(given), choices=choices)
    return None


def _in_range(low: float | None, high: float | None) -> str | None:
    if low is not None and high is not None:
        return _("must be between {low} and {high}").format(low=_bound(low), high=_bound(high))
    if low is not None:
        return _("must be at least {low}").format(low=_bound(low))
    if high is not None:
        return _("must be at most {high}").format(high=_bound(high))
    return None


def _bound(value: float) -> str:
    """An option's bound as the current language writes it, with the decimals it has."""
    exponent = Decimal(repr(value)).normalize().as_tuple().exponent
    digits = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return number(value, digits)


def _hint(param_hint: object) -> str | None:
    """An error's own name for the option (click's `param_hint`), as click says it."""
    if isinstance(param_hint, str):
        return param_hint
    if isinstance(param_hint, Sequence) and param_hint:
        return " / ".join(repr(str(x)) for x in param_hint)
    return None


def _printable(text: str) -> str:
    """What a person typed, with any control character written as an escape."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# ---- help -------------------------------------------------------------------------------

# What a help text names by a field, filled in as it is said (`{bots}` in simulate --bot): a
# help text is a message like any other, its English the msgid (marked N_ where it is written).
HELP_FIELDS = {"bots": ", ".join(BOTS), "levels": ", ".join(LEVELS)}
# click's and Typer's own words in a help screen, for the catalogs: the sections' titles
# (`HelpFormatter.write_heading`) and the help option's help (said as every option's is).
CLICK_WORDS = frozenset(
    {N_("Arguments"), N_("Commands"), N_("Options"), N_("Show this message and exit.")}
)


def speak_help(group: TyperGroup) -> None:
    """Every command of `group` says its help (-h) in its language (`HelpContext`)."""
    for command in (group, *group.commands.values()):
        command.context_class = HelpContext


# click's help formatter, as the click that Typer uses names it: click's way to change a help
# screen's words is a subclass of it set as a context's `formatter_class`.
ClickHelpFormatter = typer.Context.formatter_class


class HelpFormatter(ClickHelpFormatter):  # type: ignore[misc,valid-type]
    """click's help screen with click's and Typer's words in the current language: "Usage:",
    the sections' titles and what follows an option's help (`[default: 2; required]`; the value
    and a range such as `2<=x<=4` stay as they are)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(_(heading) if heading in CLICK_WORDS else heading)

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        super().write_dl([(term, _facts(text)) for term, text in rows], col_max, col_spacing)


def _facts(text: str) -> str:
    """An option's help with the facts click and Typer add in brackets said in the current
    language."""
    found = re.fullmatch(r"(.*?)\[([^\[\]]*)\]", text, re.DOTALL)
    if found is None or not (found[1] == "" or found[1].endswith("  ")):
        return text
    facts = []
    for fact in found[2].split("; "):
        if fact == "required":
            fact = _("required")
        elif fact.startswith("default: "):
            fact = _("default: {default}").format(default=fact.removeprefix("default: "))
        facts.append(fact)
    return f"{found[1]}[{'; '.join(facts)}]"


class HelpContext(typer.Context):
    """A command's context whose help is said in the command's language, chosen as its other
    words are (`help_language`): its description, each option's and argument's help, the list of
    commands' summaries and click's own words (`HelpFormatter`), each from the English of the
    source (the msgid) through the catalogs."""

    formatter_class = HelpFormatter

    def get_help(self) -> str:
        command = self.command
        help_language(command, sys.argv[1:])  # the words `main.run` gives click
        command.help = _in_language(command.help)
        for param in command.get_params(self):
            if isinstance(param, TyperOption | TyperArgument):
                param.help = _in_language(param.help)
        for each in command.commands.values() if isinstance(command, TyperGroup) else ():
            # the list of commands gives each one's first paragraph (`tidy_help`)
            each.short_help = (_in_language(each.help) or "").split("\n\n")[0] or each.short_help
        return super().get_help()


def _in_language(text: str | None) -> str | None:
    """A help text (its English, the msgid) in the current language, its fields filled in."""
    return None if text is None else _(text).format(**HELP_FIELDS)


def help_language(command: object, args: Sequence[str]) -> None:
    """Choose the language of COMMAND's help, in `exact61 ARGS`, as it chooses its other words:
    a command that takes --lang by its --lang wherever it stands in ARGS (click shows the help
    at once, before it reads a --lang that comes after -h), else the locale's (an unknown
    --lang too); `exact61` itself the locale's; `serve` English."""
    if isinstance(command, TyperCommand) and (option := _language_option(command)) is not None:
        _choose_language(option, _own_args(command, args))
    else:
        i18n.use(i18n.language_from_environment() if isinstance(command, TyperGroup) else "en")
