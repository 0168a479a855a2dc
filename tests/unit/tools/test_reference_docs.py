"""tools/reference_docs.py: the committed pass and dialect references are what the registrations give."""
from __future__ import annotations

import subprocess
import sys

from npu_opt.tools import reference_docs


def test_committed_references_are_not_stale() -> None:
    # (in a fresh process: tests register passes and ops of their own, which the references leave out)
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.reference_docs", "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_dialect_reference_is_what_dialect_docs_prints(capsys) -> None:
    from npu_opt.tools.npu_opt import main

    assert main(["--dialect-docs"]) == 0
    assert capsys.readouterr().out in reference_docs.dialect_reference()


def test_pass_reference_names_every_registered_pass() -> None:
    from npu_opt.ir.pass_registry import registered_passes

    text = reference_docs.pass_reference()
    assert all(f"  {name} " in text for name in registered_passes())


def test_check_reports_a_stale_file(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(reference_docs, "DOCS", tmp_path)
    assert reference_docs.main(["--check"]) == 1
    assert "passes.md is stale" in capsys.readouterr().err
    assert reference_docs.main([]) == 0 and reference_docs.main(["--check"]) == 0
