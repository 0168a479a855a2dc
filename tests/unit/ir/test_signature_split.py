"""split_tensor_signature finds the same pieces as split_top_level, or declines (None)."""
from __future__ import annotations

import pytest

from npu_opt.ir.signature_split import split_tensor_signature
from npu_opt.ir.type_parser import split_top_level

PER_AXIS = "tensor<8x3x3x8x!quant.uniform<i8<-127:127>:f32:0, {0.5,0.25,1.0e-3}>>"


@pytest.mark.parametrize("body", [
    f"({PER_AXIS}, tensor<8xi32>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.1:-128>>",
    "() -> tensor<4xf32>",
    "( tensor<4xi8, #npu.fm<{a, b}>> ,tensor<?x2xf32> )->  tensor<i8>",
])
def test_same_pieces_as_split_top_level(body: str) -> None:
    inputs, result = split_tensor_signature(body)  # type: ignore[misc]
    close = body.index(")")
    expected = [p.strip() for p in split_top_level(body[1:close])] if body[1:close].strip() else []
    assert inputs == expected
    assert result == body[body.index("->") + 2:].strip()


@pytest.mark.parametrize("body", [
    "(i32) -> tensor<4xi8>",                  # not a tensor
    "(tensor<4xi8>) -> (tensor<4xi8>)",       # a parenthesised result list
    "(tensor<4x{i8>) -> tensor<i8>",          # unbalanced brackets
    '(tensor<4xi8, #a.b<"x">>) -> tensor<i8>',  # a string
    "(tensor<4xi8, #a.b<x->y>>) -> tensor<i8>",  # a '->' inside a type
])
def test_declines_the_rest(body: str) -> None:
    assert split_tensor_signature(body) is None
