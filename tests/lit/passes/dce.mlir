// dce: pure ops whose results are unused are erased, transitively; ops with side effects
// (test.effect), ops with regions and terminators stay.
// RUN: %npu_opt %s --split-input-file --pass=dce --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats

// STATS: 'dce'
// STATS-NEXT: (S) 3 num-dce'd - Number of dead operations erased
// STATS: 'dce'
// STATS-NEXT: (S) 1 num-dce'd
// STATS: 'dce'
// STATS-NEXT: (S) 1 num-dce'd
// STATS: 'dce'
// STATS-NEXT: (S) 0 num-dce'd

// A dead chain goes completely; the used op stays.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NOT:    "test.addi"
// CHECK:        %[[U:.*]] = "test.muli"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NOT:    "test.addi"
// CHECK:        return %[[U]] : i32
func.func @chain(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.muli"(%a, %a) : (i32, i32) -> i32
  %c = "test.addi"(%b, %x) : (i32, i32) -> i32
  %used = "test.muli"(%x, %x) : (i32, i32) -> i32
  return %used : i32
}

// -----

// An unused test.effect stays, and so does the pure op it uses.
// CHECK-LABEL: func.func @effects
// CHECK-NEXT:   %[[A:.*]] = "test.addi"
// CHECK-NEXT:   %{{.*}} = "test.effect"(%[[A]]) : (i32) -> i32
// CHECK-NEXT:   "test.effect"() : () -> ()
// CHECK-NOT:    "test.constant"
// CHECK:        return
func.func @effects(%x: i32) {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %e = "test.effect"(%a) : (i32) -> i32
  "test.effect"() : () -> ()
  %dead = "test.constant"() {value = 0 : i32} : () -> i32
  return
}

// -----

// Dead ops inside a region go; the region op itself stays even though its result is unused.
// CHECK-LABEL: func.func @regions
// CHECK-NEXT:   %{{.*}} = "test.region"() ({
// CHECK-NEXT:     "test.yield"(%{{.*}}) : (i32) -> ()
// CHECK-NEXT:   }) : () -> i32
// CHECK-NEXT:   return
func.func @regions(%x: i32) {
  %r = "test.region"() ({
    %dead = "test.addi"(%x, %x) : (i32, i32) -> i32
    "test.yield"(%x) : (i32) -> ()
  }) : () -> i32
  return
}

// -----

// A value used only by a branch is live; unused function arguments are not touched.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[X:.*]]: i32, %[[UNUSED:.*]]: i32)
// CHECK:      ^bb1(%[[I:.*]]: i32):
// CHECK-NEXT:   %[[N:.*]] = "test.addi"(%[[I]], %[[I]]) : (i32, i32) -> i32
// CHECK-NEXT:   "test.br"(%[[N]])[^bb1] : (i32) -> ()
func.func @loop(%x: i32, %unused: i32) {
  "test.br"(%x)[^bb1] : (i32) -> ()
^bb1(%i: i32):
  %n = "test.addi"(%i, %i) : (i32, i32) -> i32
  "test.br"(%n)[^bb1] : (i32) -> ()
}

// -----

// An unused DMA still transfers: npu.dma writes memory, so dce keeps it. An unused view
// (npu.reshape, pure) goes.
// CHECK-LABEL: func.func @dma_kept
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xi8>)
// CHECK-NEXT:   %{{.*}} = "npu.dma"(%[[X]]) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>
// CHECK-NEXT:   return
func.func @dma_kept(%x: tensor<1x4x4x8xi8>) {
  %d = "npu.dma"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>
  %r = "npu.reshape"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x16x8xi8>
  return
}
