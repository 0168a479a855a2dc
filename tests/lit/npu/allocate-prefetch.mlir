// npu-allocate{prefetch-overlap=true}: a prefetched weight buffer is allocated from its DMA's time
// (between the previous op and its consumer, as Vela's live ranges have it), so it may take the
// bytes of a buffer the previous op frees. Where it does, the transfer cannot run under that op:
// the DMA is marked npu.unhidden (its stream keeps the prefetch npu-buffer-weights chose;
// npu-estimate hides none of it), and a remark names the DMA, the tensor and the bytes. A prefetch whose buffer overlaps
// nothing keeps its flag and is written live from the previous op, as without the option.
// RUN: %npu_opt %s --split-input-file --pass="npu-allocate{prefetch-overlap=true}" --pass-remarks --pass-statistics -o %t.out 2> %t.diag
// RUN: %filecheck %s --check-prefix=ON --input-file %t.out
// RUN: %filecheck %s --check-prefix=REMARK --input-file %t.diag
// RUN: %npu_opt %s --split-input-file --pass=npu-allocate | %filecheck %s --check-prefix=OFF
// RUN: %npu_opt %s --split-input-file --pass="npu-allocate{prefetch-overlap=true},npu-check-schedule" -o /dev/null

// conv_a's IFM (the argument, 2048 bytes) dies at time 0; conv_b's weight DMA (time 1) is
// prefetched under conv_a. With the option its buffer takes the argument's bytes and the prefetch
// is dropped: kept, it would be live beside the argument and span 4096 bytes, not 3072. Without
// the option the buffer is live from time 0 and gets bytes of its own.
// ON-LABEL: func.func @overlap
// ON-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = [[IN:[0-9]+]], size = 2048, live = [0, 0]>]
// ON: "npu.dma"{{.*}}npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.unhidden, npu.alloc = #npu.alloc<Sram, offset = [[IN]], size = 1024, live = [1, 2]>
// REMARK: remark: prefetch dropped: the weight buffer of DMA 'conv_b_weights' (npu.dma) (Sram bytes [[LO:[0-9]+]]..[[HI:[0-9]+]]) shares bytes [[LO]]..[[HI]] (1024 bytes) with argument #0 (live 0..0) at time 0, before its reader at time 2; the DMA waits for the previous op to end and its transfer is not hidden
// REMARK: 1 prefetch-dropped
// OFF-LABEL: func.func @overlap
// OFF-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = [[IN:[0-9]+]], size = 2048, live = [0, 0]>]
// OFF: "npu.dma"{{.*}}npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = {{[0-9]+}}, size = 1024, live = [0, 2]>
// OFF-NOT: npu.unhidden
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @overlap(%x: tensor<1x8x8x32xi8>) -> tensor<1x8x8x16xi8> {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x32xi8>}> : () -> tensor<16x1x1x32xi8>
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %a = "npu.conv2d"(%x, %wa, %bias) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %wd = "npu.dma"(%w) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %b = "npu.conv2d"(%a, %wd, %bias) <{name = "conv_b", kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// As above with a 1024-byte argument: kept whole (live from time 0) the buffer spans no more
// bytes (3072: conv_b's time needs as many). Packed in Vela's priority order (its live-range
// times), the buffer gets bytes of its own at once, so the prefetch stays without a repacking.
// ON-LABEL: func.func @repacked
// ON: "npu.dma"{{.*}}npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = {{[0-9]+}}, size = 1024, live = [0, 2]>
// ON-NOT: npu.unhidden
// REMARK: 0 prefetch-repacks
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @repacked(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %a = "npu.conv2d"(%x, %wa, %bias) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %wd = "npu.dma"(%w) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %b = "npu.conv2d"(%a, %wd, %bias) <{name = "conv_b", kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// Nothing dies at time 0 (conv_b reads the argument too): the buffer overlaps nothing live under
// conv_a, so the prefetch stays and the buffer is written live from time 0.
// ON-LABEL: func.func @kept
// ON: "npu.dma"{{.*}}npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = {{[0-9]+}}, size = 1024, live = [0, 2]>
// ON-NOT: npu.unhidden
// REMARK-NOT: prefetch dropped
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @kept(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %a = "npu.conv2d"(%x, %wa, %bias) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %wd = "npu.dma"(%w) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %b = "npu.conv2d"(%a, %wd, %bias) <{name = "conv_b", kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c = "npu.add"(%b, %x) {npu.time = 3 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %c : tensor<1x8x8x16xi8>
  }
}
