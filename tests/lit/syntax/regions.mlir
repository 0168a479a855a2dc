// Regions and blocks: several blocks, block arguments, successors, forward block references,
// nested regions that see the values of their parents, and empty regions. Values are numbered
// per function and block arguments of non-entry blocks take the next numbers.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @diamond
// CHECK-SAME: (%[[COND:.*]]: i1, %[[A:.*]]: i32) -> i32 {
// CHECK-NEXT:   "test.br"(%[[A]])[^bb1, ^bb2] : (i32) -> ()
// CHECK-NEXT: ^bb1(%[[P:.*]]: i32):
// CHECK-NEXT:   "test.br"(%[[P]])[^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb2(%[[Q:.*]]: i32):
// CHECK-NEXT:   %[[C:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:   "test.br"(%[[C]])[^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb3(%[[X:.*]]: i32):
// CHECK-NEXT:   return %[[X]] : i32
// CHECK-NEXT: }
func.func @diamond(%cond: i1, %a: i32) -> i32 {
  "test.br"(%a)[^then, ^else] : (i32) -> ()
^then(%p: i32):
  "test.br"(%p)[^join] : (i32) -> ()
^else(%q: i32):
  %c = "test.constant"() {value = 1 : i32} : () -> i32
  "test.br"(%c)[^join] : (i32) -> ()
^join(%x: i32):
  return %x : i32
}

// -----

// Blocks are renumbered in order; a loop branches back to an earlier block.
// CHECK-LABEL: func.func @loop
// CHECK-NEXT:   "test.br"(%{{.*}})[^bb1] : (i32) -> ()
// CHECK-NEXT: ^bb1(%[[I:.*]]: i32):
// CHECK-NEXT:   %[[N:.*]] = "test.addi"(%[[I]], %[[I]]) : (i32, i32) -> i32
// CHECK-NEXT:   "test.br"(%[[N]])[^bb1, ^bb2] : (i32) -> ()
// CHECK-NEXT: ^bb2(%[[R:.*]]: i32):
// CHECK-NEXT:   return %[[R]] : i32
func.func @loop(%start: i32) -> i32 {
  "test.br"(%start)[^header] : (i32) -> ()
^header(%i: i32):
  %next = "test.addi"(%i, %i) : (i32, i32) -> i32
  "test.br"(%next)[^header, ^exit] : (i32) -> ()
^exit(%r: i32):
  return %r : i32
}

// -----

// A non-isolated region uses values of the enclosing function; a region may have an entry block
// with arguments, and an op may have several regions.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[A:.*]]: i32) -> i32 {
// CHECK-NEXT:   %[[R:.*]] = "test.region"(%[[A]]) ({
// CHECK-NEXT:   ^bb0(%[[INNER:.*]]: i32):
// CHECK-NEXT:     %[[S:.*]] = "test.addi"(%[[INNER]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:     %[[T:.*]] = "test.region"() ({
// CHECK-NEXT:       %[[U:.*]] = "test.muli"(%[[S]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:       "test.yield"(%[[U]]) : (i32) -> ()
// CHECK-NEXT:     }) : () -> i32
// CHECK-NEXT:     "test.yield"(%[[T]]) : (i32) -> ()
// CHECK-NEXT:   }, {
// CHECK-NEXT:     "test.yield"(%[[A]]) : (i32) -> ()
// CHECK-NEXT:   }) : (i32) -> i32
// CHECK-NEXT:   return %[[R]] : i32
func.func @nested(%a: i32) -> i32 {
  %r = "test.region"(%a) ({
  ^bb0(%inner: i32):
    %s = "test.addi"(%inner, %a) : (i32, i32) -> i32
    %t = "test.region"() ({
      %u = "test.muli"(%s, %a) : (i32, i32) -> i32
      "test.yield"(%u) : (i32) -> ()
    }) : () -> i32
    "test.yield"(%t) : (i32) -> ()
  }, {
    "test.yield"(%a) : (i32) -> ()
  }) : (i32) -> i32
  return %r : i32
}

// -----

// An empty region stays empty (no block is invented).
// CHECK-LABEL: func.func @empty_region
// CHECK-NEXT:   "test.region"() ({
// CHECK-NEXT:   }) : () -> ()
func.func @empty_region() {
  "test.region"() ({
  }) : () -> ()
  return
}

// -----

// A nested region with several blocks: dominance inside it is independent of the outer CFG,
// and an outer value stays visible in an outer block after it.
// CHECK-LABEL: func.func @nested_cfg
// CHECK:        %[[V:.*]] = "test.constant"() {value = 7 : i32} : () -> i32
// CHECK:        "test.region"() ({
// CHECK-NEXT:     "test.br"()[^bb1] : () -> ()
// CHECK-NEXT:   ^bb1:
// CHECK-NEXT:     "test.yield"(%[[V]]) : (i32) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK:      ^bb2:
// CHECK-NEXT:   return %[[V]] : i32
func.func @nested_cfg() -> i32 {
  %v = "test.constant"() {value = 7 : i32} : () -> i32
  "test.br"()[^bb1] : () -> ()
^bb1:
  "test.region"() ({
    "test.br"()[^inner] : () -> ()
  ^inner:
    "test.yield"(%v) : (i32) -> ()
  }) : () -> ()
  "test.br"()[^bb2] : () -> ()
^bb2:
  return %v : i32
}

// -----

// A value may be used before its definition in program order when the definition dominates
// the use (here, in a block printed later but reached first).
// CHECK-LABEL: func.func @forward_reference
// CHECK-NEXT:   "test.br"()[^bb2] : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT:   return %[[LATE:.*]] : i32
// CHECK-NEXT: ^bb2:
// CHECK-NEXT:   %[[LATE]] = "test.constant"() {value = 3 : i32} : () -> i32
// CHECK-NEXT:   "test.br"()[^bb1] : () -> ()
func.func @forward_reference() -> i32 {
  "test.br"()[^def] : () -> ()
^use:
  return %late : i32
^def:
  %late = "test.constant"() {value = 3 : i32} : () -> i32
  "test.br"()[^use] : () -> ()
}
