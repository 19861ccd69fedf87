"""The ``swizzlekit`` command: one thin module per command group.

Exit codes: 0 success; 2 bad input (one line on stderr naming the problem and the valid
choices, never a traceback); 1 a failure of the machine or a tool (no GPU, ncu or cuobjdump
missing or failing), also one line. ``--json`` prints one JSON object on stdout.

>>> main(["--version"])
swizzlekit 0.1.0
0
"""

from __future__ import annotations

import sys

from swizzlekit import __version__
from swizzlekit.cli import bench, cta, kernels, lab, report, smem
from swizzlekit.cli.common import Parser
from swizzlekit.errors import SwizzleKitError, ToolError, one_line

__all__ = ["main", "build_parser"]

_RUN = {"smem": smem.run, "cta": cta.run, "kernels": kernels.run, "bench": bench.run_bench,
        "reproduce": bench.run_reproduce, "lab": lab.run, "report": report.run}


def build_parser() -> Parser:
    ap = Parser(prog="swizzlekit", description="Data locality for GPU matrix multiplication.")
    ap.add_argument("--version", action="store_true", help="print the version and exit")
    top = ap.add_subparsers(dest="area", parser_class=Parser)
    for group in (smem, cta, kernels, bench, lab, report):
        group.add(top)
    return ap


def _fail(message: str, code: int) -> int:
    print(one_line(f"swizzlekit: error: {message}"), file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.version:
            print(f"swizzlekit {__version__}")
            return 0
        if args.area is None:
            raise SwizzleKitError("name a command: " + ", ".join(_RUN) + " (or --help)")
        return _RUN[args.area](args)
    except SwizzleKitError as e:
        return _fail(str(e), 2)
    except ToolError as e:
        return _fail(str(e), 1)
    except BrokenPipeError:          # output piped into head and the like
        return 0
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except OSError as e:             # a path the command was given cannot be read or written
        if e.filename is None:
            return _fail(f"the machine refused: {e.strerror or e}", 1)
        return _fail(f"cannot use {e.filename}: {e.strerror or e} (give another path)", 2)
    except MemoryError:
        return _fail("ran out of memory (a limit this command should have named: please "
                     "report it)", 1)
    except Exception as e:           # a bug of ours: still one line, never a traceback
        return _fail(f"internal error, please report: {type(e).__name__}: {e}", 1)


if __name__ == "__main__":
    sys.exit(main())
