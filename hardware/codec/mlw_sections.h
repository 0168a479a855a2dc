/* The weight codec's palette sections (mlw_sections.c), for mlw_core.c. */
#ifndef NPU_OPT_MLW_SECTIONS_H
#define NPU_OPT_MLW_SECTIONS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* Bits of `value` up to its highest set bit (0 for 0). */
static inline int mlw_bit_length(unsigned value) {
    int bits = 0;
    while (value >> bits) bits++;
    return bits;
}

/* 1 when the codec keeps `weights` (-255..255) one palette section, proven cheaply: no aligned
 * block of non-zero values has few enough distinct values for a first palette to pay. 0 when it
 * may split. */
int mlw_one_section(const int16_t *weights, Py_ssize_t count);

/* The start of every palette section of `weights` (the first 0), into *starts (for the caller to
 * free); returns how many, or -1 without memory. */
Py_ssize_t mlw_section_starts(const int16_t *weights, Py_ssize_t count, Py_ssize_t **starts);

#endif
