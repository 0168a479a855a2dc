/* Where Vela 5.2's weight codec opens a new palette section: its savings heuristic as one scan,
 * and a cheap proof that a stream stays one section. Design notes: docs/weight_codec.md. */
#include "mlw_sections.h"

#include <stdlib.h>

static const int WINDOWS[5] = {32, 64, 128, 256, 512}; /* non-zero values between two checks */

/* Index width the heuristic assumes for a palette of `entries` values (0 for one, at most 8). */
static int index_bits(int entries) {
    if (entries <= 1) return 0;
    int bits = mlw_bit_length((unsigned)(entries - 1));
    return bits < 8 ? bits : 8;
}

/* Whether a first palette of `entries` values (`indexed` of them indexed) pays over `window`
 * values (C division: toward zero, as the heuristic computes). */
static int first_palette_pays(int window, int entries, int indexed) {
    if (indexed > 32) return 0;
    return window * (90 - index_bits(indexed) * 15) / 16 - entries * 8 - 20 > 0;
}

/* The most distinct values an aligned block of `window` non-zero values may hold and still pay
 * for a first palette (counting one fewer, in case zeros are left out of the index). */
static int most_distinct(int window) {
    int most = 0;
    for (int distinct = 1; distinct <= 512; distinct++)
        if (first_palette_pays(window, distinct - 1, distinct - 1)) most = distinct;
    return most;
}

int mlw_one_section(const int16_t *weights, Py_ssize_t count) {
    /* Before the first palette, checks fall on windows holding a whole aligned block of `window`
     * non-zero values, so a palette there has at least that block's distinct values. */
    for (int k = 0; k < 5; k++) {
        int window = WINDOWS[k], limit = most_distinct(window);
        Py_ssize_t block = 0, stamp[512];
        for (int v = 0; v < 512; v++) stamp[v] = -1;
        int distinct = 0, filled = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            if (!weights[i]) continue;
            int cell = weights[i] + 256;
            if (stamp[cell] != block) {
                stamp[cell] = block;
                distinct++;
            }
            if (++filled == window) {
                if (distinct <= limit) return 0;
                block++;
                distinct = 0;
                filled = 0;
            }
        }
    }
    return 1;
}

typedef struct {
    Py_ssize_t *starts;
    Py_ssize_t count, capacity;
} Starts;

static int open_at(Starts *s, Py_ssize_t at) {
    if (s->count && s->starts[s->count - 1] == at) return 0;
    if (s->count == s->capacity) {
        Py_ssize_t grown = s->capacity ? 2 * s->capacity : 16;
        Py_ssize_t *bigger = realloc(s->starts, (size_t)grown * sizeof(Py_ssize_t));
        if (bigger == NULL) return -1;
        s->starts = bigger;
        s->capacity = grown;
    }
    s->starts[s->count++] = at;
    return 0;
}

Py_ssize_t mlw_section_starts(const int16_t *weights, Py_ssize_t count, Py_ssize_t **out) {
    Starts s = {NULL, 0, 0};
    *out = NULL;
    if (open_at(&s, 0) < 0) return -1;
    if (mlw_one_section(weights, count)) {
        *out = s.starts;
        return s.count;
    }
    /* previous[p]: the last position before p holding the same value (-1: none); nonzero_at: the
     * positions of the non-zero values, in order. */
    Py_ssize_t *previous = malloc((size_t)count * sizeof(Py_ssize_t));
    Py_ssize_t *nonzero_at = malloc((size_t)count * sizeof(Py_ssize_t));
    if (previous == NULL || nonzero_at == NULL) {
        free(previous);
        free(nonzero_at);
        free(s.starts);
        return -1;
    }
    Py_ssize_t last[512];
    for (int v = 0; v < 512; v++) last[v] = -1;
    for (Py_ssize_t p = 0; p < count; p++) {
        previous[p] = last[weights[p] + 256];
        last[weights[p] + 256] = p;
    }
    /* Per window size, the last distinct count taken (its range), extended when a check repeats
     * over the same start (checks repeat on every zero after a check). */
    Py_ssize_t known_begin[5], known_end[5];
    int known_window[5], known_entries[5];
    for (int k = 0; k < 5; k++) known_window[k] = 0;
    Py_ssize_t start = 0, zeros = 0, nonzeros_seen = 0; /* zeros: in [start, i), then in [start, i] */
    int palette = 0;                                     /* entries of the section's palette; 0: none */
    int failed = 0;
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        Py_ssize_t span = i - start;
        int skip_zero = zeros > span / 4; /* the heuristic's guess: zeros left out of the palette */
        if (palette && previous[i] < start) {
            /* A value new to the section widens its palette; a long section whose index would grow
             * a bit, or a palette past 32 entries, ends here. */
            palette++;
            int grown = palette - 1 - skip_zero;
            int power_of_two = grown >= 0 && (grown & (grown - 1)) == 0;
            if (power_of_two && (span - zeros > 512 || palette - skip_zero > 32)) {
                palette = 0;
                start = i;
                zeros = 0;
                failed = open_at(&s, i) < 0;
            }
        }
        if (weights[i] == 0) {
            zeros++;
        } else {
            nonzero_at[nonzeros_seen++] = i;
        }
        for (int k = 0; k < 5 && !failed; k++) {
            int window = WINDOWS[k] * (palette ? 2 : 1);
            Py_ssize_t nonzeros = i - start - zeros; /* the section's non-zero values up to i, less one */
            if (nonzeros <= 0 || nonzeros % window) continue;
            /* A palette over the last window + 2 non-zero values (the section, if shorter). */
            Py_ssize_t back = nonzeros_seen - (window + 2);
            Py_ssize_t begin = back < 0 || nonzero_at[back] < start ? start : nonzero_at[back];
            Py_ssize_t from = begin;
            int entries = 0;
            if (known_window[k] == window && known_begin[k] == begin && known_end[k] < i) {
                from = known_end[k] + 1;
                entries = known_entries[k];
            }
            for (Py_ssize_t p = from; p <= i; p++) entries += previous[p] < begin;
            known_window[k] = window;
            known_begin[k] = begin;
            known_end[k] = i;
            known_entries[k] = entries;
            int indexed = entries - skip_zero;
            int pays;
            if (!palette) {
                pays = first_palette_pays(window, entries, indexed);
            } else {
                int narrower = (index_bits(palette - skip_zero) - index_bits(indexed)) * 15;
                pays = window * narrower / 16 - entries * 8 - 20 > 0;
            }
            if (pays) {
                palette = entries;
                start = begin;
                failed = open_at(&s, begin) < 0;
                zeros = 0;
                for (Py_ssize_t p = begin; p <= i; p++) zeros += weights[p] == 0;
            }
        }
    }
    free(previous);
    free(nonzero_at);
    if (failed) {
        free(s.starts);
        return -1;
    }
    *out = s.starts;
    return s.count;
}
