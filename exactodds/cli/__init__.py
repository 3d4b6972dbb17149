"""The ``exactodds`` command line: a thin typer layer over the Python API.

Each command lives in its own module; :mod:`exactodds.cli.app` puts them on :data:`app`. Errors
are caught once,
here (:func:`main`): bad input of any kind (files, options, a missing optional extra, an output
path) and usage errors print one line ``exactodds: error: WHERE: WHAT`` and exit 2; anything else
is a bug, printed as one line that says how to see the traceback, with exit 1.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import traceback
from typing import Any

import typer

from exactodds.cli.app import app, command_for
from exactodds.cli.completion import OPTIONS as COMPLETION_OPTIONS
from exactodds.cli.completion import completion
from exactodds.cli.process import (
    BROKEN_PIPE,
    INTERRUPTED,
    Terminated,
    error_stream,
    finish_stdout,
    guard_streams,
    received,
    silence_stdout,
    stdout_error,
    terminating_signals,
    whole_stdout,
)
from exactodds.errors import ExactOddsError, error_line, quote

__all__ = ["app", "main"]

DEBUG_VARIABLE = "EXACTODDS_DEBUG"
"""Set to 1 to see the traceback of any error."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI and exit 0, 2 for bad input (one line on stderr), 1 for a bug."""
    sys.exit(run(argv))


def run(argv: list[str] | None = None) -> int:
    """Run the CLI; the exit code (see :mod:`exactodds.cli.process` for the environment)."""
    debug = os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
    stdout_closed, _ = guard_streams()
    if stdout_closed:
        return _fail("stdout is closed: nothing could be printed", 2, debug)
    error: OSError | None = None
    with terminating_signals():
        try:
            with whole_stdout():
                code = _run(argv, debug)
        except OSError as exc:  # the last of the output could not be written
            code, error = 0, exc
    error = error or finish_stdout()
    if error is None or code == BROKEN_PIPE:
        return code
    if error.errno == errno.EPIPE:
        return BROKEN_PIPE
    return _fail(stdout_error(error) or f"stdout: {error.strerror or error}", 2, debug)


def _run(argv: list[str] | None, debug: bool) -> int:
    """Run the command, every error caught here: the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0].partition("=")[0] in COMPLETION_OPTIONS:
        try:
            return completion(args)
        except ExactOddsError as exc:
            return _fail(str(exc), 2, debug)
    return _run_command(args, debug)


def _run_command(args: list[str], debug: bool) -> int:
    """Run the command of ``args``, every error caught here: the exit code."""
    stderr = sys.stderr
    try:
        command = command_for(args)
        refused = _refused_arguments(command, args)
        if refused is not None:
            return _fail(refused, 2, debug)
        code = _main(command, args)
        if code == INTERRUPTED:  # typer turns Ctrl-C (KeyboardInterrupt) into this code, silently
            return _interrupted(debug)
        return code if isinstance(code, int) else 0
    except ExactOddsError as exc:
        from exactodds.cli.parameters import cli_message

        return _fail(cli_message(exc, args[0] if args else ""), 2, debug)
    except typer.TyperException as exc:  # click's usage errors (typer vendors click)
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``exactodds``: the help
            typer.echo(exc.format_message())
            return 0
        return _fail(_usage(exc), 2, debug)
    except Terminated as exc:
        return _fail(f"terminated by {exc.name}", exc.exit_code, debug)
    except (typer.Abort, KeyboardInterrupt):
        return _fail("interrupted", INTERRUPTED, debug)
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        silence_stdout()
        return BROKEN_PIPE
    except SystemExit as exc:  # typer ends a broken pipe with exit 1 and wraps the streams
        return _broken_pipe_exit(exc, stderr)
    except OSError as exc:  # the system refused a file operation: not a bug of exactodds
        on_stdout = stdout_error(exc)
        if on_stdout is not None:
            silence_stdout()
            return _fail(on_stdout, 2, debug)
        return _fail(f"{exc.filename or 'file'}: {exc.strerror or exc}", 2, debug)
    except Exception as exc:
        message = (
            f"{type(exc).__name__}: {exc} (a bug in exactodds; "
            f"rerun with {DEBUG_VARIABLE}=1 to see the traceback)"
        )
        return _fail(message, 1, debug, label="internal error")


def _main(command: Any, args: list[str]) -> Any:
    """Run ``command`` on ``args``, its CPU budget (``--budget``) forgotten afterwards, the
    card engine's counts shown by a progress bar on a terminal."""
    from exactodds.cli.progress import counting_progress
    from exactodds.cpus import BUDGET_IN_FORCE  # light: not the budget checks (the engine)

    token = BUDGET_IN_FORCE.set(None)
    try:
        with counting_progress():
            return command.main(args=args, prog_name="exactodds", standalone_mode=False)
    finally:
        token.var.reset(token)


def _refused_arguments(command: Any, args: list[str]) -> str | None:
    """Why ``args`` are refused before click reads them, or None: a NUL character (no file
    name or value holds one; path options would choke on it), an empty file name, a number too
    long to read."""
    for arg in args:
        if "\x00" in arg:
            return f"argument {quote(arg)} contains a NUL character"
    empty = _empty_file_name(command, args)
    if empty is not None:
        return f"{empty}: an empty file name"
    return _long_number(command, args) or _unicode_digit(command, args)


def _interrupted(debug: bool) -> int:
    """The line and exit code of a run stopped by a signal (SIGTERM, …) or by Ctrl-C."""
    signal = received()
    if signal is not None:
        return _fail(f"terminated by {signal.name}", signal.exit_code, debug)
    return _fail("interrupted", INTERRUPTED, debug)


def _broken_pipe_exit(exc: SystemExit, stderr: Any) -> int:
    """The exit code of typer's exit after a broken pipe (it exits 1 and wraps the streams);
    any other exit goes on."""
    cause = exc.__context__
    if isinstance(cause, OSError) and cause.errno == errno.EPIPE:
        sys.stderr = stderr
        silence_stdout()
        return BROKEN_PIPE
    raise exc


def _command_run(command: Any, args: list[str]) -> tuple[Any, list[str]] | None:
    """The command ``args`` run and the arguments after its name, or None (not a command):
    a group's command (``game chemin-de-fer``) is looked up inside the group, as click does,
    so its options are checked like any other command's."""
    sub, given = command, args
    while hasattr(sub, "commands"):
        if not given or given[0] not in sub.commands:
            return None
        sub, given = sub.commands[given[0]], given[1:]
    return sub, given


_FILE_OPTIONS = frozenset({"--rules", "--against", "--scheduler"})
"""Text options that name a file (besides the path-typed ones)."""


def _empty_file_name(command: Any, args: list[str]) -> str | None:
    """Where ``args`` give an empty file name, or None: an empty argument (every command's
    arguments are files or paytables) or an empty value of an option naming a file or folder.
    ``Path("")`` is ``.``: unchecked, ``--out ""`` would write into the current folder.
    """
    found = _command_run(command, args)
    if found is None:
        return None
    sub, given = found
    valued: dict[str, bool] = {}  # option → whether it names a file
    where = "argument"
    for param in sub.params:
        if getattr(param, "param_type_name", "") == "argument":
            where = str(param.name).upper()
        if getattr(param, "param_type_name", "") == "option" and not param.is_flag:
            names_file = type(param.type).__name__ in {"TyperPath", "Path"}
            for opt in param.opts:
                valued[opt] = names_file or opt in _FILE_OPTIONS
    rest = iter(given)
    for arg in rest:
        if arg == "--":
            return where if "" in rest else None
        name, eq, value = arg.partition("=")
        if eq and name in valued:
            if not value and valued[name]:
                return name
        elif arg in valued:
            if next(rest, None) == "" and valued[arg]:
                return arg
        elif arg == "":
            return where
    return None


def _long_number(command: Any, args: list[str]) -> str | None:
    """The error for an integer option given more digits than a file may hold
    (:data:`~exactodds.limits.MAX_DIGITS`), or None: bounded like file values, before click
    converts the text (a million digits would take seconds) or a command uses it."""
    from exactodds.limits import MAX_DIGITS

    found = _command_run(command, args)
    if found is None:
        return None
    sub, given = found
    integer = {
        opt
        for param in sub.params
        if getattr(param, "param_type_name", "") == "option"
        and type(param.type).__name__ in {"IntParamType", "IntRange"}
        for opt in param.opts
    }
    rest = iter(given)
    for arg in rest:
        if arg == "--":
            return None
        name, eq, value = arg.partition("=")
        if not eq and arg in integer:
            name, value = arg, next(rest, "")
        if name in integer and sum(c.isdigit() for c in value) > MAX_DIGITS:
            return f"{name}: {quote(value, 40)} has more than {MAX_DIGITS} digits (the limit)"
    return None


def _unicode_digit(command: Any, args: list[str]) -> str | None:
    """The error for a digit other than 0-9 (``²``, ``③``, Arabic-Indic ``٣``) in the value of
    an option that does not name a file, or None: every number, card and count is written in
    ASCII digits, and ``int()`` would read some of them (``٣`` as 3) and choke on others.
    """
    found = _command_run(command, args)
    if found is None:
        return None
    sub, given = found
    texts = {
        opt
        for param in sub.params
        if getattr(param, "param_type_name", "") == "option" and not param.is_flag
        if type(param.type).__name__ not in {"TyperPath", "Path"}
        for opt in param.opts
        if opt not in _FILE_OPTIONS
    }
    rest = iter(given)
    for arg in rest:
        if arg == "--":
            return None
        name, eq, value = arg.partition("=")
        if not eq and arg in texts:
            name, value = arg, next(rest, "")
        if name not in texts:
            continue
        bad = next((c for c in value if c.isdigit() and not c.isascii()), None)
        if bad is not None:
            return (
                f"{name}: {quote(value, 40)} holds the digit {bad!r} (U+{ord(bad):04X}): "
                "write numbers with the digits 0-9"
            )
    return None


def _fail(message: str, code: int, debug: bool, label: str = "error") -> int:
    """Print the one error line on stderr (nowhere when stderr is closed: never on stdout)."""
    stream = error_stream()
    if stream is None:
        return code
    try:
        if debug and sys.exc_info()[0] is not None:
            traceback.print_exc(file=stream)
        print(error_line(message, label), file=stream, flush=True)
    except OSError:  # stderr is full or gone too: the exit code says it all
        pass
    return code


def _hint(exc: Any, ctx: Any) -> str:
    """exactodds' own "did you mean" (:mod:`exactodds.suggest`) for an unknown option, command
    or choice that click reports: click's own suggestion, if any, is dropped from its message
    by the caller."""
    from exactodds.suggest import did_you_mean

    kind = type(exc).__name__
    if kind == "NoSuchOption" and ctx is not None:
        known = [o for p in ctx.command.params for o in (*p.opts, *p.secondary_opts)]
        return did_you_mean(exc.option_name, known)
    if kind == "UsageError" and ctx is not None and "No such command" in exc.message:
        name = exc.message.split("'")[1] if exc.message.count("'") >= 2 else ""
        return did_you_mean(name, ctx.command.list_commands(ctx))
    choices = getattr(getattr(getattr(exc, "param", None), "type", None), "choices", None)
    message = str(getattr(exc, "message", ""))
    if kind == "BadParameter" and choices and message.count("'") >= 2:
        given = message.split("'")[1]  # click: "'tp' is not one of 'to', 'for', 'both'"
        return did_you_mean(given, [str(getattr(c, "value", c)) for c in choices])
    return ""


_CLICK_HINT = re.compile(r"\. Did you mean '[^']*'\?| \(Possible options: [^)]*\)")
"""Click's own suggestions, replaced by exactodds' (:func:`_hint`)."""


def _usage(exc: Any) -> str:
    """A click usage error as ``WHERE: WHAT (see … --help)``: WHERE is the command and option."""
    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path if ctx is not None else "exactodds"
    where = path.removeprefix("exactodds").strip()
    param = getattr(exc, "param", None)
    if param is not None and type(exc).__name__ == "BadParameter":
        opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
        name = max(opts, key=len) if opts else param.human_readable_name
        where = f"{where} {name}".strip()
        what = str(exc.message)
    else:
        what = str(exc.format_message())
    what = _CLICK_HINT.sub("", " ".join(what.split())).rstrip(".") + _hint(exc, ctx)
    if what[:1].isupper() and what[1:2].islower():
        what = what[0].lower() + what[1:]
    hint = f" (see {path} --help)"
    return f"{where}: {what}{hint}" if where else what + hint
