/* The hot loops of npu-opt's weight codec, which writes Vela 5.2's compressed weight stream ("mlw")
 * byte for byte: per palette section (mlw_sections.c finds them) the mode, palette and symbols, the
 * Golomb-Rice parameter search, the slices and the bit packing; and the extension's Python
 * interface. Design notes: docs/weight_codec.md. */
#include "mlw_sections.h"

#include <stdlib.h>
#include <string.h>

enum {
    WEIGHT_SETS = 13,    /* divisor 0..5 plain, 0..5 truncated, raw */
    RAW_SET = 12,
    RUN_SETS = 4,        /* zero-run divisors 0..3 */
    SWITCH_PRICE = 40,   /* bits the search charges for a parameter change */
    UNCODABLE = 10000,   /* search cost of a symbol a set cannot code */
    SLICE_LIMIT = 32767, /* most symbols in one slice */
    NO_RUNS = 6,         /* slice header divisor field: no zero runs in the section */
    RAW_DIVISOR = 7,     /* slice header weight divisor field: raw symbols */
    END_MARK = 7,        /* divisor field that ends the stream */
    MAX_SYMBOL = 511,
    MAX_WEIGHT = 255,
    NO_RAW = 100,        /* raw bits of a section whose raw set must not be used: dearer than any other */
};

/* ---- bit sink: bit k of the stream is bit k % 8 of byte k / 8 -------------------------------- */

typedef struct {
    uint8_t *bytes;
    size_t used, capacity;
    uint64_t pending; /* bits not yet stored, oldest in bit 0 */
    int held;         /* how many */
    int failed;
} BitSink;

static void sink_store(BitSink *sink) {
    while (sink->held >= 8) {
        if (sink->used == sink->capacity) {
            size_t grown = sink->capacity ? 2 * sink->capacity : 256;
            uint8_t *bigger = realloc(sink->bytes, grown);
            if (bigger == NULL) {
                sink->failed = 1;
                sink->held = 0;
                return;
            }
            sink->bytes = bigger;
            sink->capacity = grown;
        }
        sink->bytes[sink->used++] = (uint8_t)sink->pending;
        sink->pending >>= 8;
        sink->held -= 8;
    }
}

/* Append the low `width` (at most 32) bits of `value`, least significant first. */
static inline void sink_put(BitSink *sink, uint32_t value, int width) {
    if (width <= 0) return;
    uint64_t mask = (width == 32) ? 0xffffffffull : ((1ull << width) - 1);
    sink->pending |= ((uint64_t)value & mask) << sink->held;
    sink->held += width;
    if (sink->held >= 8) sink_store(sink);
}

/* ---- parameter runs ------------------------------------------------------------------------- */

typedef struct {
    int32_t set;
    Py_ssize_t end; /* exclusive */
} Run;

static int32_t coded_costs[MAX_SYMBOL + 1][RAW_SET]; /* filled when the module loads */

static int weight_divisor(int set) { return set % 6; }
static int weight_truncated(int set) { return set >= 6 && set < RAW_SET; }

/* Bits of symbol `value` under the Golomb-Rice weight set `set` (not the raw one), as the search
 * prices them. */
static int32_t weight_cost(int32_t value, int set) {
    int divisor = weight_divisor(set);
    int32_t quotient = value >> divisor;
    if (weight_truncated(set)) return quotient > 2 ? UNCODABLE : (quotient > 0 ? 2 : 1) + divisor;
    return quotient > 31 ? UNCODABLE : quotient + 1 + divisor;
}

/* The index of the smallest of the 13 weight set costs (the lowest index on ties): each cost
 * shifted left with its index in the low bits, reduced pairwise (no data-dependent branches). */
static inline int first_cheapest(const int32_t *total) {
    int32_t key[16];
    for (int set = 0; set < 16; set++) key[set] = set < WEIGHT_SETS ? (total[set] << 4) | set : INT32_MAX;
    for (int width = 8; width > 0; width /= 2)
        for (int i = 0; i < width; i++) key[i] = key[i + width] < key[i] ? key[i + width] : key[i];
    return key[0] & 15;
}

/* The codec's dynamic programme over a symbol stream: after each value every set either keeps its
 * own running cost or switches in from the cheapest set (lowest index on ties) for SWITCH_PRICE
 * bits. Costs are kept relative to the cheapest of the step before (decisions only compare them).
 * Per step, `switched` gets the sets that switched in and `came_from` the set they came from;
 * returns the cheapest set after the last value. */
static int weight_steps(const int32_t *values, Py_ssize_t count, int raw_bits, uint16_t *switched,
                        uint8_t *came_from) {
    int32_t total[WEIGHT_SETS] = {0};
    int cheapest = 0;
    for (Py_ssize_t step = 0; step < count; step++) {
        const int32_t *row = coded_costs[values[step]];
        int32_t base = total[cheapest];
        unsigned mask = 0;
        for (int set = 0; set < WEIGHT_SETS; set++) {
            int32_t bits = set == RAW_SET ? raw_bits : row[set];
            int32_t relative = total[set] - base;
            int moves = SWITCH_PRICE < relative;
            total[set] = (moves ? SWITCH_PRICE : relative) + bits;
            mask |= (unsigned)moves << set;
        }
        switched[step] = (uint16_t)mask;
        came_from[step] = (uint8_t)cheapest;
        cheapest = first_cheapest(total);
    }
    return cheapest;
}

/* The same programme for zero runs (4 divisors; a run's cost has no bound, so 64-bit costs), where
 * switching is free after the steps `free_after` ends (the weight runs' exclusive ends, rising). */
static int run_steps(const int32_t *values, Py_ssize_t count, const Run *free_after, Py_ssize_t free_count,
                     uint16_t *switched, uint8_t *came_from) {
    int64_t total[RUN_SETS] = {0};
    int cheapest = 0;
    Py_ssize_t next_free = 0;
    for (Py_ssize_t step = 0; step < count; step++) {
        int64_t price = SWITCH_PRICE;
        if (next_free < free_count && free_after[next_free].end == step + 1) {
            price = 0;
            next_free++;
        }
        int64_t base = total[cheapest];
        unsigned mask = 0;
        for (int set = 0; set < RUN_SETS; set++) {
            int64_t bits = (int64_t)(values[step] >> set) + 1 + set;
            int64_t relative = total[set] - base;
            int moves = price < relative;
            total[set] = (moves ? price : relative) + bits;
            mask |= (unsigned)moves << set;
        }
        switched[step] = (uint16_t)mask;
        came_from[step] = (uint8_t)cheapest;
        cheapest = 0;
        for (int set = 1; set < RUN_SETS; set++)
            if (total[set] < total[cheapest]) cheapest = set;
    }
    return cheapest;
}

/* The parameter runs of a stream of `count` symbols (weights) or zero runs: the programme, then
 * read back from the last value (a run of a set starts where it switched in). Returns the run
 * count (runs in *out, for the caller to free), or -1 without memory. */
static Py_ssize_t plan_runs(const int32_t *values, Py_ssize_t count, int weights, int raw_bits,
                            const Run *free_after, Py_ssize_t free_count, Run **out) {
    *out = NULL;
    uint16_t *switched = malloc((size_t)(count ? count : 1) * sizeof(uint16_t));
    uint8_t *came_from = malloc((size_t)(count ? count : 1));
    if (switched == NULL || came_from == NULL) {
        free(switched);
        free(came_from);
        return -1;
    }
    int current = weights ? weight_steps(values, count, raw_bits, switched, came_from)
                          : run_steps(values, count, free_after, free_count, switched, came_from);
    Py_ssize_t changes = 0;
    for (Py_ssize_t step = 1; step < count; step++) changes += switched[step] != 0;
    Run *runs = malloc((size_t)(changes + 1) * sizeof(Run));
    if (runs == NULL) {
        free(switched);
        free(came_from);
        return -1;
    }
    Py_ssize_t found = 0;
    Py_ssize_t end = count;
    for (Py_ssize_t step = count - 1; step > 0; step--) {
        if (switched[step] & (1u << current)) {
            runs[found].set = current;
            runs[found].end = end;
            found++;
            end = step;
            current = came_from[step];
        }
    }
    runs[found].set = current;
    runs[found].end = end;
    found++;
    for (Py_ssize_t a = 0, b = found - 1; a < b; a++, b--) {
        Run swap = runs[a];
        runs[a] = runs[b];
        runs[b] = swap;
    }
    free(switched);
    free(came_from);
    *out = runs;
    return found;
}

/* ---- one slice's payload --------------------------------------------------------------------- */

/* A stream of symbols cut into unary chunks: the position within the current symbol's quotient
 * and the number of symbols whose last unary position has been emitted. */
typedef struct {
    const int32_t *values;
    Py_ssize_t count;
    Py_ssize_t finished;
    int32_t quotient_left; /* < 0: no symbol started */
    int divisor;
    int per_position;      /* quotient units one unary position covers */
} UnaryCursor;

/* Weight chunk (12 positions): a first bit per position (quotient left > 0) and a second bit
 * (quotient left > 1) for each position whose first bit is set. */
static void weight_chunk(UnaryCursor *c, uint32_t *first, uint32_t *second, int *second_count) {
    *first = 0;
    *second = 0;
    *second_count = 0;
    for (int position = 0; position < 12; position++) {
        if (c->quotient_left < 0) {
            if (c->finished == c->count) continue; /* padding position: a zero first bit */
            c->quotient_left = c->values[c->finished] >> c->divisor;
        }
        int32_t left = c->quotient_left;
        if (left > 0) {
            *first |= 1u << position;
            *second |= (uint32_t)(left > 1) << *second_count;
            (*second_count)++;
        }
        c->quotient_left = left - c->per_position;
        if (c->quotient_left < 0) c->finished++;
    }
}

/* Zero-run chunk (`length` positions): one bit per position, set while quotient is left. */
static uint32_t run_chunk(UnaryCursor *c, int length) {
    uint32_t bits = 0;
    for (int position = 0; position < length; position++) {
        if (c->quotient_left < 0) {
            if (c->finished == c->count) continue;
            c->quotient_left = c->values[c->finished] >> c->divisor;
        }
        bits |= (uint32_t)(c->quotient_left > 0) << position;
        c->quotient_left -= 1;
        if (c->quotient_left < 0) c->finished++;
    }
    return bits;
}

static void put_remainders(BitSink *sink, const int32_t *values, Py_ssize_t first, Py_ssize_t last, int width) {
    if (width == 0) return;
    for (Py_ssize_t i = first; i < last; i++) sink_put(sink, (uint32_t)values[i], width);
}

typedef struct {
    const int32_t *symbols;
    const int32_t *runs; /* NULL: no zero runs */
    int raw_bits, direct_offset, palette_bits, palette_size;
    const int32_t *palette;
} Section;

/* Write one slice: header (with the palette when `opens`), then rounds of a weight chunk and a
 * zero-run chunk, each round followed by the remainders the previous round completed. The weight
 * stream stays at most 8 symbols ahead of the zero-run stream and never behind it. */
static void write_slice(BitSink *sink, const Section *s, Py_ssize_t first, Py_ssize_t count, int weight_set,
                        int run_divisor, int opens) {
    int raw = weight_set == RAW_SET;
    int divisor = raw ? s->raw_bits : weight_divisor(weight_set);
    sink_put(sink, s->runs ? (uint32_t)run_divisor : NO_RUNS, 3);
    sink_put(sink, (uint32_t)(count - 1) & 0x7fff, 15);
    sink_put(sink, raw ? RAW_DIVISOR : (uint32_t)divisor, 3);
    sink_put(sink, (uint32_t)weight_truncated(weight_set), 1);
    sink_put(sink, (uint32_t)opens, 1);
    if (opens) {
        sink_put(sink, (uint32_t)s->direct_offset, 5);
        sink_put(sink, s->palette_size ? (uint32_t)(s->palette_size - 1) : 0, 5);
        sink_put(sink, (uint32_t)(s->palette_bits - 2), 3);
        for (int i = 0; i < s->palette_size; i++) sink_put(sink, (uint32_t)s->palette[i], s->palette_bits);
    }
    UnaryCursor w = {s->symbols + first, count, 0, -1, raw ? 0 : divisor, weight_truncated(weight_set) ? 3 : 2};
    /* The first slice of a section codes the run before its first symbol too. */
    UnaryCursor z = {NULL, 0, 0, -1, run_divisor, 1};
    if (s->runs) {
        z.values = s->runs + first + (opens ? 0 : 1);
        z.count = count + (opens ? 1 : 0);
    }
    int raw_chunk = divisor > 5 ? 8 : 12;
    int run_length = run_divisor < 3 ? 12 : 8;
    Py_ssize_t w_from = 0, w_to = 0, z_from = 0, z_to = 0; /* remainders due next round */
    for (;;) {
        Py_ssize_t ahead = s->runs ? w.finished - z.finished : 0;
        int weights_on = ahead < 8 && w.finished < w.count;
        int runs_on = s->runs != NULL && ahead >= 0 && z.finished < z.count;
        Py_ssize_t w_done = w.finished, z_done = z.finished;
        uint32_t first_bits = 0, second_bits = 0, run_bits = 0;
        int second_count = 0;
        if (weights_on) {
            if (raw) {
                Py_ssize_t take = w.count - w.finished;
                w.finished += take < raw_chunk ? take : raw_chunk;
            } else {
                weight_chunk(&w, &first_bits, &second_bits, &second_count);
            }
        }
        if (runs_on) run_bits = run_chunk(&z, run_length);
        if (weights_on && !raw) sink_put(sink, first_bits, 12);
        if (runs_on) sink_put(sink, run_bits, run_length);
        if (weights_on && !raw) sink_put(sink, second_bits, second_count);
        put_remainders(sink, w.values, w_from, w_to, divisor);
        put_remainders(sink, z.values, z_from, z_to, run_divisor);
        if (!weights_on && !runs_on) break;
        w_from = w_done;
        w_to = w.finished;
        z_from = z_done;
        z_to = z.finished;
    }
}

/* Plan and write one section: weight runs, zero-run runs (free to change where the weight runs
 * change), then slices cut at every change of either and every SLICE_LIMIT symbols. */
static int write_section(BitSink *sink, const Section *s, Py_ssize_t count) {
    Run *w_runs = NULL, *z_runs = NULL;
    Py_ssize_t w_count = plan_runs(s->symbols, count, 1, s->raw_bits, NULL, 0, &w_runs);
    if (w_count < 0) return -1;
    Py_ssize_t z_count = 0;
    if (s->runs) {
        z_count = plan_runs(s->runs, count + 1, 0, 0, w_runs, w_count, &z_runs);
        if (z_count < 0) {
            free(w_runs);
            return -1;
        }
    }
    Py_ssize_t start = 0, wi = 0, zi = 0;
    int opens = 1;
    while (start < count || opens) {
        Py_ssize_t end = start + SLICE_LIMIT;
        if (wi < w_count && w_runs[wi].end < end) end = w_runs[wi].end;
        if (zi < z_count && z_runs[zi].end < end) end = z_runs[zi].end;
        if (count < end) end = count;
        write_slice(sink, s, start, end - start, w_runs[wi < w_count ? wi : w_count - 1].set,
                    z_count ? z_runs[zi < z_count ? zi : z_count - 1].set : 0, opens);
        if (wi < w_count && w_runs[wi].end == end) wi++;
        if (zi < z_count && z_runs[zi].end == end) zi++;
        opens = 0;
        start = end;
    }
    free(w_runs);
    free(z_runs);
    return 0;
}

/* ---- a section's palette and symbols ----------------------------------------------------------- */

/* The codec's value code: magnitude times two, plus one for negatives (0 for zero). */
static int sign_magnitude(int value) { return value < 0 ? (-value << 1) | 1 : value << 1; }

typedef struct {
    int zero_runs, palette_size, palette_bits, raw_bits, direct_offset;
    int32_t palette[32];
    int32_t symbol_of_code[512];
} SectionPlan;

static int more_frequent_first(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* How the codec codes the section `values`: zero-run mode when zeros outnumber every other value
 * more than 4 to 1; a palette of the (up to 32) most frequent codes when they cover more than half
 * of the coded values; every other code shifted past the palette, less the direct offset. */
static void plan_section(const int16_t *values, Py_ssize_t count, SectionPlan *plan) {
    Py_ssize_t histogram[512] = {0};
    for (Py_ssize_t i = 0; i < count; i++) histogram[values[i] + 256]++;
    Py_ssize_t other = 0;
    for (int v = 0; v < 512; v++)
        if (v != 256 && histogram[v] > other) other = histogram[v];
    plan->zero_runs = histogram[256] > 4 * other;
    /* Per code, its frequency (code 1, "minus zero", never occurs; zero is not coded as a weight
     * in zero-run mode), packed with the code so that a descending sort ranks by frequency, then
     * by the larger code. */
    uint64_t ranked[512];
    int used = 0, largest = 0, direct_offset = -1;
    Py_ssize_t total = 0;
    for (int code = 0; code < 512; code++) {
        int value = code & 1 ? -(code >> 1) : code >> 1;
        Py_ssize_t frequency = (code == 1 || (code == 0 && plan->zero_runs)) ? 0 : histogram[value + 256];
        if (!frequency) continue;
        ranked[used++] = ((uint64_t)frequency << 16) | (uint64_t)code;
        largest = code;
        total += frequency;
        if (direct_offset < 0 && code < 31) direct_offset = code;
    }
    if (direct_offset < 0) direct_offset = used ? 31 : 0;
    qsort(ranked, (size_t)used, sizeof(uint64_t), more_frequent_first);
    int fits = used > 0 && used <= 32;
    int room = fits ? 32 : (511 - largest < 32 ? 511 - largest : 32);
    if (room == 1) room = 0;
    int chosen = used < room ? used : room;
    Py_ssize_t covered = 0;
    int widest = 0;
    for (int i = 0; i < chosen; i++) {
        covered += (Py_ssize_t)(ranked[i] >> 16);
        if ((int)(ranked[i] & 0xffff) > widest) widest = (int)(ranked[i] & 0xffff);
    }
    int size = 0;
    if (covered > total / 2) {
        size = chosen == 1 ? 2 : chosen; /* no one-entry palette: a second entry of code 0 */
    } else {
        chosen = 0;
        widest = largest;
    }
    plan->palette_size = size;
    plan->palette_bits = mlw_bit_length((unsigned)widest) > 2 ? mlw_bit_length((unsigned)widest) : 2;
    plan->raw_bits = fits ? (size > 1 ? mlw_bit_length((unsigned)(size - 1)) : 0) : size == 0 ? plan->palette_bits
                                                                                           : NO_RAW;
    plan->direct_offset = direct_offset;
    for (int code = 0; code < 512; code++) plan->symbol_of_code[code] = code + size - direct_offset;
    plan->symbol_of_code[0] = 1 + size - direct_offset; /* a zero outside the palette codes as minus zero */
    for (int i = 0; i < size; i++) {
        plan->palette[i] = i < chosen ? (int32_t)(ranked[i] & 0xffff) : 0;
        if (i < chosen) plan->symbol_of_code[plan->palette[i]] = i;
    }
}

/* Code the section `values` and write it: symbols (and zero runs) by the plan, then the runs,
 * slices and bits. An all-zero section in zero-run mode codes its first zero as a weight. */
static int encode_section(BitSink *sink, const int16_t *values, Py_ssize_t count) {
    SectionPlan plan;
    plan_section(values, count, &plan);
    int32_t *symbols = malloc((size_t)(count ? count : 1) * sizeof(int32_t));
    int32_t *runs = plan.zero_runs ? malloc((size_t)(count + 1) * sizeof(int32_t)) : NULL;
    if (symbols == NULL || (plan.zero_runs && runs == NULL)) {
        free(symbols);
        free(runs);
        return -1;
    }
    Py_ssize_t coded = 0;
    if (plan.zero_runs) {
        int32_t zeros = 0;
        int all_zero = 1;
        for (Py_ssize_t i = 0; i < count && all_zero; i++) all_zero = values[i] == 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            if (values[i] == 0 && !(all_zero && i == 0)) {
                zeros++;
                continue;
            }
            runs[coded] = zeros;
            symbols[coded++] = plan.symbol_of_code[sign_magnitude(values[i])];
            zeros = 0;
        }
        runs[coded] = zeros;
    } else {
        for (Py_ssize_t i = 0; i < count; i++) symbols[coded++] = plan.symbol_of_code[sign_magnitude(values[i])];
    }
    Section s = {symbols, runs, plan.raw_bits, plan.direct_offset, plan.palette_bits, plan.palette_size,
                 plan.palette};
    int status = write_section(sink, &s, coded);
    free(symbols);
    free(runs);
    return status;
}

/* ---- Python interface ------------------------------------------------------------------------ */

/* A read-only view of a contiguous vector of `itemsize`-byte integers; `name` names it in errors. */
static int int_view(PyObject *object, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    int integer = strchr("bhilq", *format) != NULL && format[1] == '\0';
    if (!integer || view->itemsize != itemsize || view->ndim > 1) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous vector of %zd-byte signed integers, not format '%s' "
                     "with %zd-byte items", name, itemsize, view->format ? view->format : "B", view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The weights of a buffer, checked against the codec's range; NULL (an error set) otherwise. */
static const int16_t *checked_weights(PyObject *object, Py_buffer *view) {
    if (int_view(object, view, 2, "the weights") < 0) return NULL;
    const int16_t *weights = view->buf;
    for (Py_ssize_t i = 0; i < view->len / 2; i++) {
        if (weights[i] < -MAX_WEIGHT || weights[i] > MAX_WEIGHT) {
            PyErr_Format(PyExc_ValueError, "weight %d at stream position %zd is outside the codec's range %d..%d",
                         (int)weights[i], i, -MAX_WEIGHT, MAX_WEIGHT);
            PyBuffer_Release(view);
            return NULL;
        }
    }
    return weights;
}

static PyObject *encode_stream(PyObject *module, PyObject *object) {
    (void)module;
    Py_buffer values;
    const int16_t *weights = checked_weights(object, &values);
    if (weights == NULL) return NULL;
    Py_ssize_t count = values.len / 2;
    Py_ssize_t *starts = NULL;
    Py_ssize_t sections = mlw_section_starts(weights, count, &starts);
    BitSink sink = {NULL, 0, 0, 0, 0, 0};
    PyObject *result = NULL;
    for (Py_ssize_t k = 0; k < sections; k++) {
        Py_ssize_t end = k + 1 < sections ? starts[k + 1] : count;
        if (encode_section(&sink, weights + starts[k], end - starts[k]) < 0) {
            sections = -1;
            break;
        }
    }
    /* End of stream: the end mark, ones up to a byte, then 0xff bytes up to 16. */
    sink_put(&sink, END_MARK, 3);
    if (sink.held) sink_put(&sink, 0xff, 8 - sink.held);
    while (!sink.failed && sink.used % 16) sink_put(&sink, 0xff, 8);
    if (sections < 0 || sink.failed)
        PyErr_NoMemory();
    else
        result = PyBytes_FromStringAndSize((const char *)sink.bytes, (Py_ssize_t)sink.used);
    free(starts);
    free(sink.bytes);
    PyBuffer_Release(&values);
    return result;
}

static PyObject *section_starts(PyObject *module, PyObject *object) {
    (void)module;
    Py_buffer values;
    const int16_t *weights = checked_weights(object, &values);
    if (weights == NULL) return NULL;
    Py_ssize_t *starts = NULL;
    Py_ssize_t sections = mlw_section_starts(weights, values.len / 2, &starts);
    PyBuffer_Release(&values);
    if (sections < 0) return PyErr_NoMemory();
    PyObject *result = PyList_New(sections);
    for (Py_ssize_t k = 0; result != NULL && k < sections; k++) {
        PyObject *start = PyLong_FromSsize_t(starts[k]);
        if (start == NULL) Py_CLEAR(result);
        else PyList_SET_ITEM(result, k, start);
    }
    free(starts);
    return result;
}

static PyObject *one_section(PyObject *module, PyObject *object) {
    (void)module;
    Py_buffer values;
    const int16_t *weights = checked_weights(object, &values);
    if (weights == NULL) return NULL;
    int single = mlw_one_section(weights, values.len / 2);
    PyBuffer_Release(&values);
    return PyBool_FromLong(single);
}

static PyMethodDef methods[] = {
    {"encode_stream", encode_stream, METH_O,
     "encode_stream(weights) -> bytes: the compressed stream of a contiguous int16 vector of weights "
     "(-255..255), byte for byte Vela 5.2's mlw_codec.encode."},
    {"section_starts", section_starts, METH_O,
     "section_starts(weights) -> list[int]: where the codec opens each palette section (the first 0)."},
    {"one_section", one_section, METH_O,
     "one_section(weights) -> bool: the cheap proof that the codec keeps the weights one section held."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "mlw_core", "The weight codec's hot loops: section coding, parameter search, bit packing.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_mlw_core(void) {
    for (int value = 0; value <= MAX_SYMBOL; value++)
        for (int set = 0; set < RAW_SET; set++) coded_costs[value][set] = weight_cost(value, set);
    return PyModule_Create(&module_def);
}
