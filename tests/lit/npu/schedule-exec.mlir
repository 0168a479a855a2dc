// npu-run executes a scheduled module stripe by stripe with every tensor at its allocated offset
// (interpreters/scheduled). A schedule from the passes gives the legalised module's outputs
// bit for bit; npu-run checks a schedule's rules first (npu-check-schedule) and refuses a
// hand-broken copy of it with the checker's error (run anyway, it would give other outputs:
// tests/unit/interpreters/scheduled/test_schedule_exec.py). (This file holds only RUN lines: the schedule is made from a tests/data model; the
// unit tests in tests/unit/interpreters/scheduled/test_schedule_exec.py break weight streams and DMA times too.)
//
// kernels.tflite under Size on a dedicated SRAM: k_conv1x7 and k_conv7x1 cascade through a
// 16-row rolling buffer in SRAM; the other feature maps live in DRAM.
// RUN: %npu_opt %S/../../data/kernels.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram_384KB --pass='schedule{optimise=Size}' -o %t.k.mlir
// RUN: npu-run %S/../../data/kernels.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram_384KB -p estimate --seed 3 > %t.k.plain
// RUN: npu-run %t.k.mlir --seed 3 > %t.k.sched
// RUN: diff %t.k.plain %t.k.sched
// RUN: %npu_opt %t.k.mlir --pass=npu-check-schedule -o %t.k.checked
//
// A rolling buffer too small: k_conv1x7's OFM keeps 2 rows for a 7x1 conv reading 7.
// RUN: %python -c "L = open(r'%t.k.mlir').read().split(chr(10)); i = [k for k, l in enumerate(L) if 'k_conv1x7' in l and 'rolling = ' in l]; assert len(i) == 1, i; l = L[i[0]]; h = l.split('rolling = ')[1].split('x')[0]; L[i[0]] = l.replace('rolling = ' + h + 'x', 'rolling = 2x'); open(r'%t.rolling.mlir', 'w').write(chr(10).join(L))"
// RUN: not npu-run %t.rolling.mlir --seed 3 2>&1 | %filecheck %s --check-prefix=ROLLING
// RUN: not %npu_opt %t.rolling.mlir --pass=npu-check-schedule 2>&1 | %filecheck %s --check-prefix=ROLLING
// ROLLING: error: schedule rule 5 (cascade): 'k_conv7x1' reads rows {{.*}} while 'k_conv1x7' writes stripes of 1 rows, but the rolling buffer holds 2 rows
//
// Two live buffers overlapping: k_conv7x1's OFM moved onto k_conv9x9's OFM in DRAM, which the
// CPU's average pool still reads after the cascade.
// RUN: %python -c "L = open(r'%t.k.mlir').read().split(chr(10)); key = 'npu.alloc<Dram, offset = '; off = lambda l: l.split(key)[1].split(',')[0]; kept = [l for l in L if 'k_conv9x9' in l and key in l]; i = [k for k, l in enumerate(L) if 'k_conv7x1' in l and key in l]; assert len(kept) == 1 and len(i) == 1; L[i[0]] = L[i[0]].replace(key + off(L[i[0]]) + ',', key + off(kept[0]) + ','); open(r'%t.overlap.mlir', 'w').write(chr(10).join(L))"
// RUN: not npu-run %t.overlap.mlir --seed 3 2>&1 | %filecheck %s --check-prefix=OVERLAP
// RUN: not %npu_opt %t.overlap.mlir --pass=npu-check-schedule 2>&1 | %filecheck %s --check-prefix=OVERLAP
// OVERLAP: error: schedule rule 3 (allocation): 'k_conv7x1' (Dram bytes {{.*}}) overlaps 'k_conv9x9'
