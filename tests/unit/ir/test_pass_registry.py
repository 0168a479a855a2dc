"""Pipeline parsing, option typing and errors of the pass registry."""
from __future__ import annotations

import pytest

import npu_opt.passes  # noqa: F401
from npu_opt.ir.pass_registry import (
    PipelineError, list_passes_text, parse_pipeline, pipeline_text, register_pipeline,
)


def test_parse_flat_pipeline_with_options():
    cse, canon = parse_pipeline("cse,canonicalize{max-iterations=3 test-convergence=true}")
    assert cse.NAME == "cse"
    assert canon.max_iterations == 3 and canon.test_convergence is True


def test_module_anchor_is_accepted():
    assert [p.NAME for p in parse_pipeline("builtin.module(cse, dce)")] == ["cse", "dce"]


def test_dump_shows_every_option_with_defaults():
    text = pipeline_text(parse_pipeline("canonicalize"))
    assert text == "builtin.module(canonicalize{max-iterations=10 test-convergence=false fold=true})"


@pytest.mark.parametrize("pipeline, message", [
    ("canonicalise", "did you mean 'canonicalize'"),
    ("canonicalize{max-iteration=2}", "did you mean 'max-iterations'"),
    ("canonicalize{max-iterations=many}", "expects integer"),
    ("canonicalize{fold=maybe}", "expects boolean"),
    ("cse,,dce", "empty pass name"),
    ("cse{", "unbalanced"),
    ("func.func(cse", "unbalanced"),
    ("foo.bar(cse)", "unknown pass manager anchor"),
])
def test_pipeline_errors(pipeline, message):
    with pytest.raises(PipelineError, match=message.replace("(", r"\(")):
        parse_pipeline(pipeline)


def test_named_pipeline_expands():
    register_pipeline("test-cleanup", "cse,dce", "CSE then DCE (test)")
    assert [p.NAME for p in parse_pipeline("test-cleanup,canonicalize")] == ["cse", "dce", "canonicalize"]
    assert "test-cleanup" in list_passes_text()


def test_list_passes_shows_options_and_statistics():
    text = list_passes_text()
    assert "max-iterations=<integer>" in text and "(default: 10)" in text
    assert "num-cse'd" in text


@pytest.mark.parametrize("pipeline, message", [
    ("schedule{optimise=Fast}", "option 'optimise' of pipeline 'schedule' expects 'Performance' | 'Size', got 'Fast'"),
    ("schedule{allocator=best}", "schedule{allocator=best}: option 'allocator' of pass 'npu-allocate' is one of"),
])
def test_a_pipeline_option_value_is_reported_as_the_pipeline_option(pipeline, message):
    with pytest.raises(PipelineError) as err:
        parse_pipeline(pipeline)
    assert str(err.value).startswith(message)
    assert "npu-buffer-weights" not in str(err.value)
