"ethosu.program"() ({
  // a padding of 70000 rows: more than IFM_PAD_TOP holds
  "ethosu.conv2d"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [8, 0, 8], strides = [16, 128, 1], depth = 16, zero_point = -3>, ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [16384, 0, 0, 0], tiles = [8, 0, 8], strides = [32, 256, 1], height = 8, width = 8, depth = 32, zero_point = 5>, activation = #ethosu.act<none, min = -128, max = 127>, block = #ethosu.block<8x8x32, ib_end = 6, ab_start = 6, acc = int32>, rounding = "tfl", upscale = "none", blockdep = 0 : i32, kernel = #ethosu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [70000, 1, 1, 1], part_kernel_first>, weights = #ethosu.stream<region = 2, base = 0, length = 1024>, scales = #ethosu.stream<region = 2, base = 1024, length = 160>}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()
