// xdsl-opt reads the #npu.target attribute npu-opt prints (as an opaque attribute), and npu-opt
// reads back what xdsl-opt prints.
// REQUIRES: xdsl
// RUN: %npu_opt %s --target=ethos-u65-256 --config %S/../Inputs/npu-target.ini --system-config Test_Fast_Dram | xdsl-opt --allow-unregistered-dialect | %npu_opt | %filecheck %s

// CHECK: module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Test_Fast_Dram" {core_clock = 800000000, {{.*}}, Dram_clock_scale = 0.5, {{.*}}}, memory_mode = "Dedicated_Sram_384KB">}
// CHECK-LABEL: func.func @f
func.func @f() {
  return
}
