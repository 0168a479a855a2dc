// Import of the data-movement family (tests/data/shape.tflite): reshape, squeeze, expand_dims,
// transpose, concatenation, pack/unpack (several results: a fused location), shape, arg_max,
// pad/padv2 (sharing one paddings constant), mean, resizes, split/split_v, slice, strided_slice.
// RUN: %npu_translate --import-tflite %S/../../data/shape.tflite --print-debuginfo | %filecheck %s

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625:1>>)
// CHECK: %[[S1:.*]] = "tfl.pseudo_const"() <{value = dense<[4, 1, 32]> : tensor<3xi32>}>
// CHECK: %[[R:.*]] = "tfl.reshape"(%[[X]], %[[S1]]) : {{.*}} -> tensor<4x1x32x!quant.uniform<i8:f32, 0.0625:1>> loc("reshape")
// CHECK: %[[SQ:.*]] = "tfl.squeeze"(%[[R]]) <{squeeze_dims = [1 : i64]}> : {{.*}} -> tensor<4x32x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[D:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<i32>}>
// CHECK: %[[EXP:.*]] = "tfl.expand_dims"(%[[SQ]], %[[D]]) : {{.*}} -> tensor<1x4x32x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[PERM:.*]] = "tfl.pseudo_const"() <{value = dense<[0, 3, 1, 2]> : tensor<4xi32>}>
// CHECK: %[[T:.*]] = "tfl.transpose"(%[[X]], %[[PERM]]) : {{.*}} -> tensor<1x8x4x4x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[CAT:.*]] = "tfl.concatenation"(%[[X]], %[[X]]) <{axis = -1 : i32, fused_activation_function = "NONE"}> : {{.*}} -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[PACK:.*]] = "tfl.pack"(%[[SQ]], %[[SQ]]) <{axis = 1 : i32, values_count = 2 : i32}> : {{.*}} -> tensor<4x2x32x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[UNPACK:.*]]:2 = "tfl.unpack"(%[[PACK]]) <{axis = 1 : i32, num = 2 : i32}> : {{.*}} loc(fused["unpack_0", "unpack_1"])
// CHECK: %[[SHAPE:.*]] = "tfl.shape"(%[[X]]) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625:1>>) -> tensor<4xi32>
// CHECK: %[[AXIS:.*]] = "tfl.pseudo_const"() <{value = dense<3> : tensor<1xi32>}>
// CHECK: %[[ARGMAX:.*]] = "tfl.arg_max"(%[[X]], %[[AXIS]]) : {{.*}} -> tensor<1x4x4xi32>
// CHECK: %[[PADS:.*]] = "tfl.pseudo_const"() <{value = dense<{{\[\[}}0, 0], [1, 1], [2, 0], [0, 0]]> : tensor<4x2xi32>}>
// CHECK: %[[PAD:.*]] = "tfl.pad"(%[[X]], %[[PADS]]) : {{.*}} -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[PV:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<!quant.uniform<i8:f32, 0.0625:1>>, value = dense<5> : tensor<i8>}>
// CHECK: %[[PAD2:.*]] = "tfl.padv2"(%[[X]], %[[PADS]], %[[PV]]) :
// CHECK: %[[MEAN:.*]] = "tfl.mean"(%[[X]], %{{.*}}) <{keep_dims = true}> : {{.*}} -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[SIZE:.*]] = "tfl.pseudo_const"() <{value = dense<[8, 6]> : tensor<2xi32>}>
// CHECK: %[[BIL:.*]] = "tfl.resize_bilinear"(%[[X]], %[[SIZE]]) <{align_corners = false, half_pixel_centers = true}> : {{.*}} -> tensor<1x8x6x8x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[NN:.*]] = "tfl.resize_nearest_neighbor"(%[[X]], %[[SIZE]]) <{align_corners = true, half_pixel_centers = false}>
// CHECK: %[[SPLIT:.*]]:2 = "tfl.split"(%{{.*}}, %[[X]]) <{num_splits = 2 : i32}> : {{.*}} -> (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.0625:1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.0625:1>>)
// CHECK: %[[SIZES:.*]] = "tfl.pseudo_const"() <{value = dense<[1, -1, 2]> : tensor<3xi32>}>
// CHECK: %[[SPLITV:.*]]:3 = "tfl.split_v"(%[[X]], %[[SIZES]], %{{.*}}) <{num_splits = 3 : i32}>
// CHECK: %[[SLICE:.*]] = "tfl.slice"(%[[X]], %{{.*}}, %{{.*}}) : {{.*}} -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: %[[SS:.*]] = "tfl.strided_slice"(%[[X]], %{{.*}}, %{{.*}}, %{{.*}}) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 2 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 1 : i32}> : {{.*}} -> tensor<2x3x3x!quant.uniform<i8:f32, 0.0625:1>>
// CHECK: return %[[EXP]], %[[T]], %[[CAT]], %[[UNPACK]]#0, %[[UNPACK]]#1, %[[SHAPE]], %[[ARGMAX]], %[[PAD]], %[[PAD2]], %[[MEAN]], %[[BIL]], %[[NN]], %[[SPLIT]]#0, %[[SPLIT]]#1, %[[SPLITV]]#0, %[[SPLITV]]#1, %[[SPLITV]]#2, %[[SLICE]], %[[SS]] :
