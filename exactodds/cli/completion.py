"""``exactodds --show-completion [SHELL]`` and ``--install-completion [SHELL]``, read before
click: typer's flags ignore a shell named after them (``--show-completion zsh`` printed the
bash script of the parent shell) and fail without a parent shell with an empty name."""

from __future__ import annotations

import typer

from exactodds.errors import ExactOddsError, quote

__all__ = ["OPTIONS", "SHELLS", "completion"]

OPTIONS = ("--show-completion", "--install-completion")
"""The root options read here."""

SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
"""The shells typer writes completion scripts for."""

_PROG = "exactodds"
_VARIABLE = "_EXACTODDS_COMPLETE"


def completion(args: list[str]) -> int:
    """Run ``args`` (starting with one of :data:`OPTIONS`): print or install the script of the
    shell named, else of the parent shell; an unknown or undetectable shell is an error.

    >>> completion(["--show-completion", "tcsh"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: --show-completion: unknown shell 'tcsh' (known: bash, zsh, ...
    """
    option, eq, value = args[0].partition("=")
    rest = args[1:]
    shell: str | None = value if eq else None
    if shell is None and rest and not rest[0].startswith("-"):
        shell, rest = rest[0], rest[1:]
    if rest:
        raise ExactOddsError(f"{option} takes one shell name, not also {quote(' '.join(rest), 40)}")
    if shell is None:
        shell = _parent_shell()
        if shell is None:
            raise ExactOddsError(
                f"{option}: cannot tell which shell runs exactodds; name it, like {option} bash "
                f"(known: {', '.join(SHELLS)})"
            )
    if shell not in SHELLS:
        from exactodds.suggest import did_you_mean

        raise ExactOddsError(
            f"{option}: unknown shell {quote(shell, 40)} (known: {', '.join(SHELLS)})"
            + did_you_mean(shell, SHELLS)
        )
    from typer._completion_shared import get_completion_script, install

    if option == "--show-completion":
        typer.echo(get_completion_script(prog_name=_PROG, complete_var=_VARIABLE, shell=shell))
        return 0
    name, path = install(shell=shell, prog_name=_PROG, complete_var=_VARIABLE)
    typer.echo(f"{name} completion installed in {path}")
    typer.echo("Completion will take effect once you restart the terminal")
    return 0


def _parent_shell() -> str | None:
    """The name of the shell that started exactodds, or None when there is none to detect."""
    import shellingham  # type: ignore[import-untyped]

    try:
        name, _ = shellingham.detect_shell()
    except shellingham.ShellDetectionFailure:
        return None
    return str(name).lower()
