"""lit's %filecheck: the filecheck console script's work, in a process that starts faster.

lit.cfg.py runs this file with ``python -S`` and, as its first argument, the directory holding the
``filecheck`` package: filecheck needs only the standard library and that package, and skipping
site (its .pth hooks: editable installs and the like) saves ~50 ms of CPU per check. The checks
go straight to filecheck's Matcher, as ``filecheck.main`` does, without that module's eager
``importlib.metadata`` import (~30 ms), which only ``--version`` uses. lit runs ~400 checks."""
import io
import sys

sys.path.append(sys.argv.pop(1))
argv = sys.argv
if len(argv) < 2 or any(flag in argv for flag in ("--help", "--version", "-version")):
    from filecheck.main import main

    main(argv)
else:
    from filecheck.matcher import Matcher
    from filecheck.options import parse_argv_options

    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8")
    sys.exit(Matcher.from_opts(parse_argv_options(argv)).run())
