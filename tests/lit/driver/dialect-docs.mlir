// --dialect-docs prints Markdown documentation generated from the op declarations: a section
// per dialect, and per op its description, traits, operands, results and attributes.
// RUN: %npu_opt --dialect-docs | %filecheck %s

// CHECK:      ## Dialect `builtin`
// CHECK:      ### `builtin.module`
// CHECK:      Traits: IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable
// CHECK:      Attributes:
// CHECK-NEXT: - `sym_name`: string attribute, optional

// CHECK:      ## Dialect `func`
// CHECK:      ### `func.func`
// CHECK:      Traits: IsolatedFromAbove, Symbol
// CHECK:      - `function_type`: function type attribute
// CHECK:      ### `func.return`
// CHECK:      Traits: Pure, IsTerminator, ReturnLike, HasParent(func.func)
// CHECK:      Operands:
// CHECK-NEXT: - `operands_` (variadic): any type

// Interfaces carry data: a costed op's kind and block type, a DMA's memory effects.
// CHECK:      ## Dialect `npu`
// CHECK:      ### Scheduled IR
// CHECK:      The attributes the scheduling passes write, declared once

// Attributes are declared too: per attribute its description and parameters in printing order.
// CHECK:      ### `#npu.act`
// CHECK:      ### `#npu.block`
// CHECK:      - `acc_bits` (`acc = ...`; an integer): accumulator bits: 16, 32 or 40
// CHECK:      ### `#npu.schedule`
// CHECK-EMPTY:
// CHECK-NEXT: The policy and the fast-storage limits a module was scheduled for
// CHECK:      Parameters, in printing order:
// CHECK-NEXT: - `strategy` (positional; one of Performance, Size): Vela's --optimise
// CHECK:      - `cascade_joins` (flag `cascade_joins`; a flag): cascades run through a residual add whose other input is whole (read by npu-form-cascades)
// CHECK:      ### `#npu.search`
// CHECK:      - `points` (`points = ...`; a list of at least 1 values, each a SearchPoint `[...]`): the frontier
// CHECK:      ### `npu.conv2d`
// CHECK:      Traits: Pure, CostedOp(conv2d; block type convolution)
// CHECK:      ### `npu.dma`
// CHECK:      Traits: MemoryEffects(read, write), CostedOp(dma; block type none)
// CHECK:      ### `npu.reshape`
// CHECK:      Traits: Pure, MemoryOnly

// CHECK:      ## Dialect `test`
// CHECK:      ### `test.addi`
// CHECK-EMPTY:
// CHECK-NEXT: Integer addition with wrap-around; folds constants and ``x + 0``.
// CHECK-EMPTY:
// CHECK-NEXT: Traits: Pure
// CHECK-EMPTY:
// CHECK-NEXT: Operands:
// CHECK-NEXT: - `lhs`: integer
// CHECK-NEXT: - `rhs`: integer
// CHECK-EMPTY:
// CHECK-NEXT: Results:
// CHECK-NEXT: - `result_`: integer
// CHECK:      ### `test.constant`
// CHECK:      Traits: Pure, ConstantLike
// CHECK:      Attributes:
// CHECK-NEXT: - `value`: any attribute

// Last, every trait and interface the ops declare, with what it means.
// CHECK:      ## Traits and interfaces
// CHECK:      - `CostedOp`: An op the NPU executes and the cost model charges
// CHECK:      - `MemoryEffects`: The op reads and/or writes memory
// CHECK:      - `MemoryOnly`: A view: the result aliases its operands' memory
// CHECK:      - `Pure`: No side effects
