"""Command line: ``mahjong-core <command> ...``.

Every command takes ``--ruleset`` and runs the side of it that the ruleset's game family
registered (``Family.cli``, :class:`mahjong_core.families.hooks.CliHooks`): its options, help
notes and examples are composed here from every registered family, and an option of another
family is refused by the family whose ruleset was given.  A family that does not offer a command
refuses it with an :class:`~mahjong_core.errors.UnsupportedError` naming the family.

Commands
--------
``hand TILES [--ruleset R] [--json]``
    Analyse a concealed hand: for a mahjong ruleset its tile count, whether it is complete (3k+2
    tiles), its shanten per form and overall, and its waiting tiles (3k+1 tiles); for another
    family what that family reports (the long-card game: complete or not, or the waits with their
    fan and 陀, and the shanten: its cards-to-a-win distance minus one; ``--banker``).
``score TILES --win TILE [--melds MELD ...] [family options] [--ruleset R] [--json]``
    Score a winning hand: the counted fans (Chinese and English names, points,
    count) and the total.  Each family adds its options (mahjong's situational flags, flowers and
    winds; the long-card game's ``--banker``, ``--jiang "J1 J2"`` and ``--caishen N``).
``simulate [--ruleset R] [--rounds|-n N] [--bots greedy,random] [--workers W] [--out F.json] [--csv F.csv] [--plot F.png] [--scheduler tcp://host:port | --local-dask] [--json] [--quiet]``
    Monte Carlo simulation between bots (``mahjong_core.simulate``: the family's simulation
    hooks); prints a summary (or, with ``--json``, the statistics as one JSON object), writes
    JSON/CSV/PNG (the family's statistics and charts).  The JSON records its provenance (package
    version, seed, batch size, minimum fan, ruleset, bots, workers).
``tournament --ruleset R --bots a,b[,...] --deals N [--seed S] [--workers W] [--json] [--csv F.csv] [--plot F.png]``
    Duplicate deals between bots (``mahjong_core.tournament``: every deal played once per seat with
    the dealer rotated): per bot its win rate, points per round and OpenSkill rating with 95 %
    intervals, and the pairwise differences; prints a summary (``--json``: one JSON object), writes
    the bots' table as CSV and their chart.
``match [--ruleset R] [--room ROOM] [--rounds N] [--bots greedy,random] [--seed S] [--json] [--out F.json]``
    A match between bots with its settlement: each round's result and the ledger, settled in a
    room of the ruleset's family (default the ruleset's ``default_room``).
``play [--ruleset R] [--seed S] [--seat N] [--glyphs]``
    Play a round in the terminal against bots (the rulesets each family offers for it).
``advise TILES [--ruleset R] [--melds M ...] [--visible TILES] [--lang en|zh] [--json]``
    Rank the discards of a 14-tile hand by fan-aware shanten: a command of the mahjong family
    alone (families/mahjong/advise_cli.py, registered as its ``CliHooks.extra_commands``).

``python -m mahjong_core ...`` is the same command line.  ``--help`` shows every
option's default and examples that run as shown.  ``--out -`` (and ``--csv -``)
print to standard output instead of writing a file; the summary then goes to
standard error (``--csv -``) or is left out (``--out -`` prints the JSON only).
The progress bar of ``simulate`` is drawn only when standard error is a
terminal, never into a log file; ``--quiet`` leaves out the bar, the summary
and the "wrote" lines.

Errors
------
An error prints one line on standard error, ``mahjong-core: error: <message>``,
never a traceback.  Control characters of echoed input are escaped
(``\\x1b``, ``\\udcff`` for a byte that is not UTF-8) and a long echo is
shortened, so the message is always a single readable line.

With ``--json`` (``hand``, ``score``, ``simulate``, ``match``) the error is
instead one JSON object on **standard output** (where the result would have
been; nothing is written on standard error), so a script reads exactly one
object either way and tells them apart by the ``error`` key::

    {"error": {"type": "TileParseError", "kind": "usage", "message": "...", "exit_status": 2}}

``type`` is the library's error class (``TileParseError``, ``RulesetError`` ...)
or ``UsageError`` (a command-line mistake), ``MissingDependency``,
``OutputError``, ``SchedulerUnreachable``, ``WorkerCrashed``,
``KeyboardInterrupt``, or the Python exception's name for an internal error.

Exit status
-----------
0
    Success.
1 (runtime error)
    The command was valid but failed while running: a simulation worker
    process died, the Dask scheduler could not be reached (or a Dask run
    failed), an output file that passed the check could not be written (disk
    full ...), standard output cannot encode the text, memory ran out, or an
    internal error (a bug; the line says so, and ``MAHJONG_CORE_DEBUG=1`` shows
    the traceback).
2 (usage error)
    The command cannot work as given, and nothing was run: an unknown command
    or option, a missing or malformed argument, a number outside its range
    (the ranges are in ``--help``), a bad tile or meld string, an unknown
    ruleset, bot, room or format, a bot count that does not fit the ruleset,
    any input the library refuses (a :class:`~mahjong_core.errors.MahjongError`),
    an output path that cannot be written (every ``--out``/``--csv``/``--plot``
    path is checked before the run; the check leaves no file behind), or a
    missing optional dependency (``--plot`` needs ``mahjong-core[plot]``,
    ``--scheduler``/``--local-dask`` need ``mahjong-core[distributed]``;
    also checked before the run).
130
    Interrupted (Ctrl-C / SIGINT); worker processes ignore SIGINT and are
    stopped by the command, so one line is printed, not one per worker.
141
    Standard output was closed by its reader (``mahjong-core simulate | head -3``):
    the command stops quietly, as a program killed by SIGPIPE does (128 + 13),
    with no message.  ``simulate`` writes its files before printing, so they
    are complete.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import re
import signal
import sys
import unicodedata
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence

from . import __version__, limits
from .errors import MahjongError, UnsupportedError
from .families import registry
from .families.hooks import Foreign
from .families.hooks import int_in as _int_in
from .families.registry import DEFAULT_RULESET
from .server.cli import add_arguments as serve_arguments   # the options only: no web framework imported
from .tournament.runner import MAX_BOOTSTRAP, MAX_DEALS

if TYPE_CHECKING:
    from concurrent.futures import Executor, ProcessPoolExecutor

    from distributed import Client

    from .simulation.stats import RunSummary

PROG = "mahjong-core"

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

# the bounds of the numbers the library takes, the same there and here (mahjong_core.limits)
MAX_ROUNDS = limits.MAX_ROUNDS
"""Upper bound of ``simulate --rounds`` and ``match --rounds`` (``mj.simulate``'s and ``mj.Match``'s)."""
MAX_BATCH_SIZE = limits.MAX_BATCH_SIZE
MAX_BATCHES = limits.MAX_BATCHES
"""Upper bound of rounds / batch size: the list of batches is built before the run."""
MAX_WORKERS = limits.MAX_WORKERS
"""Upper bound of ``--workers``: a process pool forks all its workers at once."""
MAX_SEED = limits.MAX_SEED
MAX_MIN_FAN = limits.MAX_MIN_FAN
MAX_SCHEDULER_TIMEOUT = 3600.0
_MESSAGE_LIMIT = 300
"""Longest error line (characters); a longer one keeps its start and its end."""


class CliError(Exception):
    """A failure the command line reports itself (not an input error of the library)."""

    status = EXIT_RUNTIME

    def __init__(self, message: str, type_name: "str | None" = None) -> None:
        super().__init__(message)
        self.type_name = type_name or type(self).__name__


class UsageError(CliError):
    """The command line cannot work as given (exit status 2)."""

    status = EXIT_USAGE


class RunError(CliError):
    """The command was valid but failed while running (exit status 1)."""

    status = EXIT_RUNTIME


# ------------------------------------------------------------------ argument types
def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_SCHEDULER_TIMEOUT:  # also refuses nan
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0 and at most {MAX_SCHEDULER_TIMEOUT:g}, got {text!r}")
    return value


def _non_empty(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def _output_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name must not be empty")
    if "\x00" in text:  # only possible in-process (an argv cannot hold one); os calls refuse it
        raise argparse.ArgumentTypeError("the file name contains a NUL character")
    return text


STDOUT = "-"
"""The output path that means standard output (``--out -``, ``--csv -``)."""


# ------------------------------------------------------------------ the families' commands
def _given(args: argparse.Namespace, command: str, family: registry.Family) -> list[str]:
    """The options of ``family`` for ``command`` given on this command line, as typed."""
    out = []
    for flags, kw in _family_options(family, command):
        dest = kw.get("dest") or flags[0].lstrip("-").replace("-", "_")
        value, default = getattr(args, dest, None), kw.get("default", False if kw.get("action") == "store_true" else None)
        if value != default:
            out.append(f"--no-{flags[0][2:]}" if value is False and kw.get("action") is argparse.BooleanOptionalAction
                       else flags[0])
    return out


def _family_options(family: registry.Family, command: str) -> list[Any]:
    """The options ``family`` adds to ``command`` (its ``cli.options``; a callable is called)."""
    hooks = family.cli
    options = hooks.options.get(command, ()) if hooks is not None else ()
    return list(options() if callable(options) else options)


def _run_family_command(command: str, args: argparse.Namespace) -> int:
    """Run ``command`` for the family of ``--ruleset``: its own ``cli.commands[command]``, told
    which options of other families were given (each family words that refusal)."""
    rs = registry.get_ruleset(args.ruleset)
    family = registry.get_family(rs.family)
    run = family.cli.commands.get(command) if family.cli is not None else None
    if run is None:
        raise UnsupportedError(f"{command}: the {family.name} family ({', '.join(registry.ruleset_names(family.name))}) "
                               f"does not offer the {command} command")
    foreign = [Foreign(option, other.name, registry.ruleset_names(other.name),
                       tuple(flags[0] for flags, _ in _family_options(other, command)))
               for other in registry.families() if other is not family
               for option in _given(args, command, other)]
    return int(run(args, foreign))


def _cmd_hand(args: argparse.Namespace) -> int:
    return _run_family_command("hand", args)


def _cmd_score(args: argparse.Namespace) -> int:
    return _run_family_command("score", args)


# ------------------------------------------------------------------ bots (simulate, match)
def _seat_bots(text: str, rs: registry.RulesetRecord) -> tuple[str, ...]:
    """``--bots``: one bot name per seat of ``rs`` (its family's bots), or one name for every seat."""
    names = sorted(registry.family_of(rs).bots)
    bots = tuple(b.strip() for b in text.split(","))
    if not all(bots):
        raise UsageError(f"--bots {text!r}: a bot name is empty; expected names out of {', '.join(names)}")
    unknown = [b for b in bots if b not in names]
    if unknown:
        raise UsageError(f"--bots: unknown bot {unknown[0]!r}; expected one of {', '.join(names)}")
    if len(bots) == 1:
        bots *= rs.players
    if len(bots) != rs.players:
        raise UsageError(f"--bots: {rs.name} has {rs.players} players; give {rs.players} bot names "
                         f"or one for every seat, got {len(bots)} ({text})")
    return bots


# ------------------------------------------------------------------ output files
def _require(module: str, option: str, extra: str) -> ModuleType:
    """Import an optional dependency, or refuse the option naming the extra to install."""
    from ._extras import require_extra

    try:
        return require_extra(module, option, extra)
    except ImportError as exc:
        raise UsageError(str(exc), "MissingDependency") from None


def _plot_target(path: str) -> str:
    """The file ``--plot`` writes: matplotlib picks the format from the extension and adds
    ``.png`` when there is none; an extension it cannot write is refused before the run."""
    if path == STDOUT:
        raise UsageError("--plot -: charts are binary files; give a file name", "OutputError")
    backend = _require("matplotlib.backends.backend_agg", "--plot", "plot")
    formats = sorted(backend.FigureCanvasAgg.get_supported_filetypes())
    ext = os.path.splitext(path)[1][1:]
    if not ext:
        return path.rstrip(".") + ".png"
    if ext.lower() not in formats:
        raise UsageError(f"--plot {_shown(path)}: matplotlib cannot write .{ext} files; "
                         f"use one of {', '.join('.' + f for f in formats)}", "OutputError")
    return path


def _check_writable(option: str, path: str) -> bool:
    """Refuse (usage error) an output path that cannot be written, before any work; returns
    whether the file exists already.  A new file is created and removed again, so the check
    proves the directory accepts it and leaves nothing behind."""
    shown = f"{option} {_shown(path)}"
    try:
        if os.path.isdir(path):
            raise UsageError(f"{shown}: is a directory", "OutputError")
        if os.path.lexists(path):
            if os.path.isfile(path):
                open(path, "ab").close()  # append mode: the content is untouched
            elif not os.access(path, os.W_OK):
                raise PermissionError(13, "Permission denied")
            return True
        parent = os.path.dirname(path) or "."
        if not os.path.isdir(parent):
            what = "is not a directory" if os.path.exists(parent) else "does not exist"
            raise UsageError(f"{shown}: the directory {_shown(parent)} {what}", "OutputError")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        os.close(fd)
        os.unlink(path)
        return False
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{shown}: cannot write: {reason}", "OutputError") from None


class _Outputs:
    """The files a command will write, checked before the run and written after it."""

    def __init__(self, wanted: "list[tuple[str, str | None]]") -> None:
        to_stdout = [option for option, path in wanted if path == STDOUT]
        if len(to_stdout) > 1:
            raise UsageError(f"{' and '.join(to_stdout)} both write to standard output ('-'); give one of them "
                             "a file name", "OutputError")
        self.stdout = to_stdout[0] if to_stdout else None
        """The option whose output goes to standard output, if any."""
        self.files = [(option, path) for option, path in wanted if path and path != STDOUT]
        seen: dict[str, str] = {}
        for option, path in self.files:
            real = os.path.realpath(path)
            if real in seen:
                raise UsageError(f"{seen[real]} and {option} name the same file {_shown(path)}", "OutputError")
            seen[real] = option
        self.existed = {option: _check_writable(option, path) for option, path in self.files}

    def write(self, option: str, write: Callable[[str], object]) -> "str | None":
        """Run ``write(path)`` for ``option`` (nothing for an option that is not given or is
        ``-``: the command prints that one); an OSError is a runtime error, and a file that did
        not exist before is removed again rather than left half written."""
        path = dict(self.files).get(option)
        if path is None:
            return None
        try:
            write(path)
        except OSError as exc:
            if not self.existed[option]:
                try:
                    os.unlink(path)
                except OSError:
                    pass
            raise RunError(f"{option} {_shown(path)}: writing failed: {exc.strerror or exc}", "OutputError") from None
        return path


def _write_text(text: str) -> Callable[[str], None]:
    def write(path: str) -> None:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    return write


# ------------------------------------------------------------------ simulate
def _ignore_sigint() -> None:  # pragma: no cover - runs in the worker processes
    """Worker initializer: Ctrl-C reaches the whole process group; only the parent handles it
    (it stops the pool), so the workers do not each print a KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers are all running before Ctrl-C is honoured again.

    A SIGINT that reaches a freshly forked worker before its initializer ran can kill it (the
    parent's handler is inherited), leaving a broken pool while the parent shuts it down.
    While the pool forks its workers (the first ``submit`` starts them all under ``fork``),
    SIGINT only sets a flag, in the parent and in the inherited handler of the workers; the
    interrupt is raised once they are up, so the caller's ``finally`` stops a whole pool."""
    from concurrent.futures import ProcessPoolExecutor

    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    try:
        pool.submit(int).result()  # starts the workers; waits until one ran its initializer
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        pool.shutdown(wait=True, cancel_futures=True)
        raise KeyboardInterrupt
    return pool


def _connect(address: str, timeout: float) -> Client:
    from .simulation.dask_support import check_address, connect

    try:
        check_address(address)
    except MahjongError as exc:  # a malformed address, refused before any connection: usage
        raise UsageError(f"--scheduler: {exc}") from None
    try:
        return connect(address, timeout=timeout)
    except MahjongError as exc:  # reachable in principle; not now: a runtime failure
        raise RunError(str(exc), "SchedulerUnreachable") from None


def _show_progress(args: argparse.Namespace) -> bool:
    """A progress bar only for a person watching: not with ``--quiet``/``--no-progress``, and not
    when standard error is not a terminal (a log file would get every redraw of the bar)."""
    if args.quiet or args.no_progress:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


def _run_simulation(args: argparse.Namespace, ruleset: str, bots: tuple[str, ...], batches: int
                    ) -> RunSummary:
    from concurrent.futures.process import BrokenProcessPool

    from .simulation import simulate

    workers = min(args.workers or min(os.cpu_count() or 1, MAX_WORKERS), batches)
    client: Client | None = None
    pool: ProcessPoolExecutor | None = None
    executor: Executor | Client | str | None
    if args.scheduler:
        executor = client = _connect(args.scheduler, args.scheduler_timeout)
    elif args.local_dask:
        executor = "dask"
    else:
        executor = None
    dask = args.scheduler or args.local_dask
    progress: Any = _show_progress(args)
    deferred: list[int] = []
    deferring = False
    previous: Any = None
    bar: Any = None
    try:
        if executor is None and workers > 1:
            executor = pool = _start_pool(workers)
            # Ctrl-C during the run only sets a flag, acted on between two finished batches: a
            # KeyboardInterrupt raised inside the executor's own code (a submit writing to its
            # wake-up pipe, say) can leave its manager thread waiting forever, and the shutdown
            # below would then hang.
            previous = signal.signal(signal.SIGINT, lambda signum, frame: deferred.append(signum))
            deferring = True
            if progress:
                from .simulation.runner import progress_bar

                bar = progress_bar(args.rounds)

            def tick(n: int) -> None:
                if deferred:
                    raise KeyboardInterrupt
                if bar is not None:
                    bar.update(n)

            progress = tick
        result = simulate(
            ruleset, args.rounds, bots, seed=args.seed, executor=executor, batch_size=args.batch_size,
            workers=workers, progress=progress, min_fan=args.min_fan,
        )
        if deferred:   # interrupted after the last batch: still an interrupt, nothing written
            raise KeyboardInterrupt
        return result
    except BrokenProcessPool:
        raise RunError("a simulation worker process died unexpectedly (killed, or out of memory); "
                       "nothing was written", "WorkerCrashed") from None
    except (MahjongError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:
        if not dask:
            raise  # an internal error; main() reports it
        raise RunError(f"the Dask run failed: {type(exc).__name__}: {exc}", type(exc).__name__) from None
    finally:
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if deferring:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
        if client is not None:
            client.close()


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulation.runner import simulation_hooks

    rs = registry.get_ruleset(args.ruleset)
    simulation_hooks(rs)   # a family that offers no simulation is refused first, by name
    hooks = registry.family_of(rs).cli
    if hooks is not None and not hooks.simulate_min_fan and args.min_fan is not None:
        raise UsageError(f"--min-fan: not an option of simulate --ruleset {rs.name}")
    bots = _seat_bots(args.bots, rs)
    batches = -(-args.rounds // args.batch_size)
    if batches > MAX_BATCHES:
        raise UsageError(f"--rounds {args.rounds} in batches of {args.batch_size} makes {batches:,} batches; "
                         f"at most {MAX_BATCHES:,}: raise --batch-size")
    if args.scheduler or args.local_dask:
        _require("distributed", "--scheduler" if args.scheduler else "--local-dask", "distributed")
    plot_path = _plot_target(args.plot) if args.plot else None
    outputs = _Outputs([("--out", args.out), ("--csv", args.csv), ("--plot", plot_path)])
    if args.json and outputs.stdout == "--csv":
        raise UsageError("--json and --csv - both write to standard output; give --csv a file name", "OutputError")

    result = _run_simulation(args, rs.name, bots, batches)

    # files first: a reader that closes standard output early does not cost them
    written = [outputs.write("--out", _write_text(result.to_json())),
               outputs.write("--csv", lambda path: _write_text(result.to_csv())(path))]
    if plot_path:
        from .simulation.plots import plot_result

        written.append(outputs.write("--plot", lambda path: plot_result(result, path)))
    if args.json or outputs.stdout == "--out":  # the statistics are the output: one JSON object
        print(result.to_json())
        return EXIT_OK
    report = sys.stdout
    if outputs.stdout == "--csv":  # the CSV is the output; the summary goes to stderr
        sys.stdout.write(result.to_csv())
        report = sys.stderr
    if not args.quiet:
        print(result.summary(), file=report)
        for path in written:
            if path:
                print(f"wrote {_shown(path)}", file=report)
    return EXIT_OK


# ------------------------------------------------------------------ match, play
# ------------------------------------------------------------------ tournament
def _cmd_tournament(args: argparse.Namespace) -> int:
    from .tournament.runner import tournament

    rs = registry.get_ruleset(args.ruleset)
    bots = [b.strip() for b in args.bots.split(",")]
    if not all(bots):
        raise UsageError(f"--bots {args.bots!r}: a bot name is empty; expected names out of "
                         f"{', '.join(sorted(registry.family_of(rs).bots))}")
    plot_path = _plot_target(args.plot) if args.plot else None
    outputs = _Outputs([("--csv", args.csv), ("--plot", plot_path)])
    if args.json and outputs.stdout == "--csv":
        raise UsageError("--json and --csv - both write to standard output; give --csv a file name", "OutputError")
    batches = -(-args.deals // args.batch_size)
    workers = min(args.workers or min(os.cpu_count() or 1, MAX_WORKERS), batches)
    from concurrent.futures.process import BrokenProcessPool

    try:   # the library checks the bots, their number and the deals before playing any
        result = tournament(rs.name, bots, args.deals, seed=args.seed, workers=workers, batch_size=args.batch_size,
                            bootstrap=args.bootstrap, progress=_show_progress(args))
    except BrokenProcessPool:
        raise RunError("a tournament worker process died unexpectedly (killed, or out of memory); "
                       "nothing was written", "WorkerCrashed") from None
    written = [outputs.write("--csv", _write_text(result.to_csv()))]
    if plot_path:
        from .tournament.plots import plot_tournament

        written.append(outputs.write("--plot", lambda path: plot_tournament(result, path)))
    if args.json:
        print(result.to_json())
        return EXIT_OK
    if outputs.stdout == "--csv":   # the CSV is the output; the summary goes to standard error
        print(result.to_csv(), end="")
        report = sys.stderr
    else:
        report = sys.stdout
    if not args.quiet:
        print(result.summary(), file=report)
        for path in written:
            if path is not None:
                print(f"wrote {path}", file=report)
    return EXIT_OK


def _cmd_match(args: argparse.Namespace) -> int:
    return _run_family_command("match", args)


def _cmd_play(args: argparse.Namespace) -> int:
    family = registry.family_of(args.ruleset)
    offered = tuple(family.cli.play_rulesets()) if family.cli is not None and "play" in family.cli.commands else ()
    if offered and args.ruleset not in offered:   # the family plays some of its rulesets at the terminal
        raise UnsupportedError(f"play: the {family.name} family does not offer play for {args.ruleset!r} "
                               f"(it offers play for {', '.join(offered)})")
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # a line that is not UTF-8 is asked again, not a crash
    return _run_family_command("play", args)


# ------------------------------------------------------------------ parser
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # every command-line mistake argparse finds comes here
        raise UsageError(f"{message} (see {self.prog} --help)")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Help that shows each option's default, except where there is nothing to show (a switch
    that is off, an option that is absent unless given, an empty list or string) or the help says
    it in words; the examples of the epilog keep their lines."""

    def _get_help_string(self, action: argparse.Action) -> "str | None":
        default = action.default
        if (default is None or isinstance(default, bool) or default in ("", [], ())
                or "default" in (action.help or "")):
            return action.help
        return super()._get_help_string(action)


_SHARED_EXAMPLES = {
    "tournament": ["mahjong-core tournament --ruleset two-player --bots greedy,random --deals 20 --seed 1"],
    "simulate": ["mahjong-core simulate --rounds 200 --out - --quiet"],
    "serve": ["mahjong-core serve --db mahjong.sqlite3 --init",
              "mahjong-core serve --port 0 --db :memory: --rounds 4 --no-bots"],
}


def _examples() -> dict[str, list[str]]:
    """Every family's examples of each command (in registration order), then the shared ones."""
    out: dict[str, list[str]] = {}
    for family in registry.families():
        if family.cli is not None:
            for command, lines in family.cli.examples.items():
                out.setdefault(command, []).extend(lines)
    for command, lines in _SHARED_EXAMPLES.items():
        out.setdefault(command, []).extend(lines)
    return out


EXAMPLES = _examples()
"""The examples each command's ``--help`` shows (tests/cli runs every one: each exits 0; ``play``
with ``q`` typed at its first prompt, ``serve`` until Ctrl-C, after which it exits 130)."""


def _epilog(command: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[command])


def _fragments(key: str) -> list[str]:
    """The families' help fragments for ``key`` (``CliHooks.help``), in registration order."""
    return [f.cli.help[key] for f in registry.families() if f.cli is not None and key in f.cli.help]


def _noted(head: str, key: str, tail: str = "") -> str:
    """``head (fragment; fragment)tail``: the families' notes on an option's help."""
    notes = _fragments(key)
    return f"{head} ({'; '.join(notes)}){tail}" if notes else f"{head}{tail}"


def _add_family_options(p: argparse.ArgumentParser, command: str) -> None:
    """The options every family adds to ``command`` (an option two families share is added once)."""
    seen: set[str] = set()
    for family in registry.families():
        for flags, kw in _family_options(family, command):
            if flags[0] not in seen:
                seen.add(flags[0])
                p.add_argument(*flags, **kw)


def _cmd_serve(args: argparse.Namespace) -> int:
    for module in ("starlette", "uvicorn", "websockets"):
        _require(module, "serve", "server")
    from .server.cli import run, settings_from

    return run(settings_from(args))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Fast, exact rules engine for Chinese mahjong.",
                     formatter_class=_HelpFormatter,
                     epilog="Exit status: 0 ok, 1 runtime error, 2 usage error, 130 interrupted, "
                            "141 output closed early. With --json, an error is a JSON object on stdout.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, formatter_class=_HelpFormatter,
                              epilog=_epilog(name) if name in EXAMPLES else None)

    seed = _int_in(0, MAX_SEED)
    rulesets = registry.ruleset_names()
    p = command("hand", "shanten, waits and win check of a concealed hand")
    tiles = _fragments("hand.tiles")
    p.add_argument("tiles", help=tiles[0] + "".join(f" ({t})" for t in tiles[1:]))
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=rulesets, help="the rules to play")
    _add_family_options(p, "hand")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_hand)

    p = command("score", "score a winning hand: fans and total")
    p.add_argument("tiles", help='concealed tiles without the winning tile, e.g. "123m456m789m11mEE"')
    p.add_argument("--win", help='the winning tile, e.g. "E" or "5m" (omit only with --heavenly)')
    melds = _fragments("score.melds")
    p.add_argument("--melds", nargs="*", metavar="MELD", help=melds[0] + "".join(f" ({t})" for t in melds[1:]))
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=rulesets, help="the rules to play")
    _add_family_options(p, "score")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_score)

    p = command("simulate", "Monte Carlo simulation between bots")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=registry.ruleset_names(),
                   help="the rules to play")
    p.add_argument("--rounds", "-n", type=_int_in(1, MAX_ROUNDS), default=10_000,
                   help=_noted("rounds", "simulate.rounds", f", 1 to {MAX_ROUNDS:,}"))
    p.add_argument("--bots", default="greedy", help="one bot name per seat or one for all: greedy, random")
    p.add_argument("--seed", type=seed, default=0, help="an integer >= 0 and below 2**256")
    p.add_argument("--workers", type=_int_in(1, MAX_WORKERS), default=None,
                   help=f"local worker processes, 1-{MAX_WORKERS} (default: all cores)")
    p.add_argument("--batch-size", type=_int_in(1, MAX_BATCH_SIZE), default=500,
                   help=f"rounds per batch, 1 to {MAX_BATCH_SIZE:,}")
    p.add_argument("--min-fan", type=_int_in(0, MAX_MIN_FAN), default=None,
                   help=_noted(f"minimum fan (起和), 0-{MAX_MIN_FAN}; default the ruleset's", "simulate.min_fan"))
    p.add_argument("--out", type=_output_path,
                   help="write the statistics and their provenance as JSON; - for standard output")
    p.add_argument("--csv", type=_output_path,
                   help=_noted("write the fan frequencies", "simulate.csv", " as CSV; - for standard output"))
    p.add_argument("--plot", type=_output_path,
                   help='write charts (PNG, or the format of the extension); needs "mahjong-core[plot]"')
    dask = p.add_mutually_exclusive_group()
    dask.add_argument("--scheduler", type=_non_empty,
                      help='run on a Dask cluster: tcp://host:port; needs "mahjong-core[distributed]"')
    dask.add_argument("--local-dask", action="store_true",
                      help="start a local Dask cluster of --workers processes")
    p.add_argument("--scheduler-timeout", type=_seconds, default=10.0,
                   help=f"seconds to reach the scheduler, at most {MAX_SCHEDULER_TIMEOUT:g}")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is none either when standard error is not a terminal)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar, no summary and no 'wrote' lines (only what --json or - asks for)")
    p.add_argument("--json", action="store_true", help="print the statistics as one JSON object")
    p.set_defaults(func=_cmd_simulate)

    p = command("tournament", "duplicate deals between bots: win rate, points and rating with confidence intervals")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=registry.ruleset_names(), help="the rules to play")
    p.add_argument("--bots", required=True,
                   help="bot names, one per seat (two at a four-player table): greedy, random, or any bot "
                        "the ruleset's family names")
    p.add_argument("--deals", type=_int_in(1, MAX_DEALS), default=100,
                   help=f"duplicate deals, each played once per seat, 1 to {MAX_DEALS:,}")
    p.add_argument("--seed", type=seed, default=0, help="an integer >= 0 and below 2**256")
    p.add_argument("--workers", type=_int_in(1, MAX_WORKERS), default=None,
                   help=f"local worker processes, 1-{MAX_WORKERS} (default: all cores, at most one per batch)")
    p.add_argument("--batch-size", type=_int_in(1, MAX_BATCH_SIZE), default=50, help="deals per batch")
    p.add_argument("--bootstrap", type=_int_in(0, MAX_BOOTSTRAP), default=200,
                   help="bootstrap resamples of the deals for the rating's interval (0: none)")
    p.add_argument("--csv", type=_output_path, help="write the bots' table as CSV; - for standard output")
    p.add_argument("--plot", type=_output_path,
                   help='write the chart (PNG, or the format of the extension); needs "mahjong-core[plot]"')
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is none either when standard error is not a terminal)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no summary and no 'wrote' lines")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_cmd_tournament)

    p = command("match", "a match between bots with settlement in a room")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=registry.ruleset_names(), help="the rules to play")
    p.add_argument("--room", default=None, help=f"room name (default: {'; '.join(_fragments('match.room'))})")
    p.add_argument("--rounds", type=_int_in(1, MAX_ROUNDS), default=8,
                   help=_noted(f"1 to {MAX_ROUNDS:,}", "match.rounds"))
    p.add_argument("--bots", default=None, help="one bot name per seat or one for all: greedy, random "
                                                "(default: greedy, then random for every other seat)")
    p.add_argument("--seed", type=seed, default=0, help="an integer >= 0 and below 2**256")
    p.add_argument("--balance", type=_int_in(0), default=None, help="opening balance of every player "
                                                                   "(default: ten times the room's minimum entry, "
                                                                   "at least 10,000)")
    p.add_argument("--json", action="store_true", help="print the rounds and the ledger as one JSON object")
    p.add_argument("--out", type=_output_path,
                   help="also write that JSON object to a file; - prints it instead of the text (as --json)")
    p.add_argument("--quiet", "-q", action="store_true", help="no 'wrote' line")
    p.set_defaults(func=_cmd_match)

    p = command("play", "play " + ", or ".join(_fragments("play")))
    # every ruleset: one its family does not play at the terminal is refused by the family's name
    p.add_argument("--ruleset", default=DEFAULT_RULESET, help="the rules to play", choices=registry.ruleset_names())
    p.add_argument("--seed", type=seed, default=None, help="an integer >= 0 and below 2**256 (default: random)")
    p.add_argument("--seat", type=int, default=0, help=_noted("your seat", "play.seat"),
                   choices=tuple(range(max(f.cli.play_seats for f in registry.families() if f.cli is not None))))
    p.add_argument("--glyphs", action="store_true", help="show tiles as Unicode glyphs")
    p.set_defaults(func=_cmd_play)

    for family in registry.families():   # the commands of one family alone (mahjong's advise)
        for name, (text, add_arguments) in (family.cli.extra_commands.items() if family.cli is not None else ()):
            add_arguments(command(name, text))

    p = command("serve", 'the reference game server and web table (needs "mahjong-core[server]")')
    serve_arguments(p)
    p.set_defaults(func=_cmd_serve)
    for p in sub.choices.values():   # for the messages: which option passes each parameter on
        p.set_defaults(option_names=_option_names(p))
    return parser


# ------------------------------------------------------------------ errors
_PARAMETER_DEST = {"win_tile": "win", "declared": "melds"}
"""Library parameters whose option has another name (``mj.score``'s ``win_tile`` is ``--win``)."""


def _option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Python parameter name -> the long option that passes it on, for one command's options."""
    names: dict[str, str] = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and action.dest != "help":   # --rounds, not -n; --ready-concealed, not --no-ready-concealed
            names.setdefault(action.dest, max(longs, key=lambda o: (not o.startswith("--no-"), len(o))))
    names.update({param: names[dest] for param, dest in _PARAMETER_DEST.items() if dest in names})
    return names


def _in_option_terms(message: str, names: dict[str, str]) -> str:
    """A library message in the command line's words: the Python parameters it names (``max_draws``,
    ``win_tile``, ``seat_wind``, ``ready_concealed=True``, ``flowers=9``) become the options that pass
    them on (``--max-draws``, ``--win``, ``--seat-wind``, ``--ready-concealed``, ``--flowers 9``).
    A name with an underscore, or followed by ``=``, is a parameter wherever it stands; a plain
    word (``seed``, ``jiang``) only where it is the subject: at the start of the message or of a
    clause, before ``must``, ``is`` or ``:``."""
    if not names:
        return message

    def option(m: "re.Match[str]") -> str:
        opt, value = names[m.group("name")], m.group("value")
        if value is None or value == "True":
            return opt
        return f"{opt} {value}"

    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    # not inside an echo of the input ('min_fan' in "unknown tile letter 'm' in 'min_fan'")
    snake = re.compile(rf"(?<![\w.\-'\"])(?P<name>{alternatives})(?:=(?P<value>[^\s:;,)'\"]+))?(?![\w\-'\"])")
    plain = re.compile(rf"(?:(?<=^)|(?<=: )|(?<=; ))(?P<name>{alternatives})(?:=(?P<value>[^\s:;,)]+))?"
                       rf"(?=(?: must| is|=|:))")

    def snake_only(m: "re.Match[str]") -> str:
        return option(m) if "_" in m.group("name") or m.group("value") is not None else m.group(0)

    return plain.sub(option, snake.sub(snake_only, message))


def _shown(text: str) -> str:
    """``text`` as one printable line: control and line-breaking characters, and the
    surrogates that stand for bytes that are not UTF-8, become their escapes."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def _one_line(message: str) -> str:
    line = _shown(message)
    if len(line) > _MESSAGE_LIMIT:  # keep the start (what) and the end (why) of a long echo
        line = f"{line[:200]} … {line[-(_MESSAGE_LIMIT - 203):]}"
    return line


def _classify(exc: BaseException) -> tuple[int, str, str]:
    """(exit status, type name, message) of an exception that ends a command."""
    if isinstance(exc, CliError):
        return exc.status, exc.type_name, str(exc)
    if isinstance(exc, MahjongError):
        return EXIT_USAGE, type(exc).__name__, str(exc)
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED, "KeyboardInterrupt", "interrupted"
    if isinstance(exc, MemoryError):
        return EXIT_RUNTIME, "MemoryError", "out of memory"
    if isinstance(exc, UnicodeEncodeError):
        return EXIT_RUNTIME, "UnicodeEncodeError", (
            f"the output cannot be shown in the encoding {exc.encoding}; set PYTHONIOENCODING=utf-8")
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return EXIT_RUNTIME, type(exc).__name__, f"{exc.strerror or exc}{where}"
    return EXIT_RUNTIME, type(exc).__name__, (
        f"internal error, please report it: {type(exc).__name__}: {exc} (MAHJONG_CORE_DEBUG=1 shows the traceback)")


_EXPECTED = (CliError, MahjongError, KeyboardInterrupt, MemoryError, UnicodeEncodeError, OSError)
"""Failures with their own message; anything else is an internal error (a bug)."""

_KIND = {EXIT_USAGE: "usage", EXIT_RUNTIME: "runtime", EXIT_INTERRUPTED: "interrupted"}


def _report(status: int, type_name: str, message: str, as_json: bool) -> None:
    line = _one_line(message)
    try:
        if as_json:
            error = {"type": type_name, "kind": _KIND[status], "message": line, "exit_status": status}
            print(json.dumps({"error": error}, ensure_ascii=False), flush=True)
        else:
            print(f"{PROG}: error: {line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # nowhere left to report to


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null, so that the interpreter's final flush
    does not raise again (the recipe of the Python documentation, signal module)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a file (a test's capture): nothing will be flushed to a pipe


def _wants_json(argv: Sequence[str]) -> bool:
    """True when ``--json`` (or an abbreviation argparse accepts) comes before a ``--``."""
    for arg in argv:
        if arg == "--":
            return False
        if len(arg) >= 3 and "--json".startswith(arg):
            return True
    return False


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run one command; returns the exit status (see the module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(argv)
    names: dict[str, str] = {}
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        names = args.option_names
        status: int = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return status
    except SystemExit:
        raise  # --help and --version
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except BaseException as exc:  # every failure ends in one line (see _classify)
        if not isinstance(exc, _EXPECTED) and os.environ.get("MAHJONG_CORE_DEBUG"):
            raise  # an internal error, and the developer asked for its traceback
        status, type_name, message = _classify(exc)
        if isinstance(exc, MahjongError):   # the library's words for its parameters: the options' names
            message = _in_option_terms(message, names)
        _report(status, type_name, message, as_json)
        return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
