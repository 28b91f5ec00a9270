/* out.c: a record -> its JSONL object or its text line, written into a sink
 * (buffer or flushing), so firmware can reuse it without stdio. */
#include "sremrt/out.h"

#include "sremrt/keymap.h"
#include "sremrt/stats.h"

static const char *const kind_names[] = {
    "match", "episode", "alert", "suggest", "summary", "error", "forecast", "absent"
};

static const char *kind_name(sremrt_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

static const char *candidate_name(sremrt_candidate c)
{
    return c == SREMRT_VARIATION ? "variation" : "extension";
}

static int has_event(sremrt_kind k)
{
    return k == SREMRT_MATCH || k == SREMRT_EPISODE || k == SREMRT_ALERT || k == SREMRT_SUGGEST ||
           k == SREMRT_FORECAST || k == SREMRT_ABSENT;
}

/* match and absent records say what matched: start, bind, events. */
static int has_match(sremrt_kind k) { return k == SREMRT_MATCH || k == SREMRT_ABSENT; }

/* Whether the kind has a "freq" field. */
static int has_freq(sremrt_kind k)
{
    return !has_match(k) && k != SREMRT_FORECAST;
}

/* A probability in units of 1e-4 as the shortest decimal: 5300 -> 0.53,
 * 10000 -> 1, 0 -> 0 (integers only: firmware prints it too). */
static void put_prob(sremrt_sink *s, int32_t e4)
{
    if (e4 <= 0 || e4 >= 10000) {
        sremrt_sink_putc(s, e4 <= 0 ? '0' : '1');
        return;
    }
    char digits[5];
    int n = 4;
    for (int k = 3; k >= 0; k--, e4 /= 10)
        digits[k] = (char)('0' + e4 % 10);
    while (digits[n - 1] == '0')
        n--;
    sremrt_sink_puts(s, "0.");
    for (int k = 0; k < n; k++)
        sremrt_sink_putc(s, digits[k]);
}

/* The fields of a forecast record, "name" then value each (JSONL: sep
 * ",\"" and "\":", text: " " and "="). */
static void put_forecast(sremrt_sink *s, const sremrt_record *r, const char *sep, const char *eq, int json)
{
    const char *q = json ? "\"" : "";
    sremrt_sink_puts(s, sep);
    sremrt_sink_puts(s, "type");
    sremrt_sink_puts(s, eq);
    sremrt_sink_puts(s, q);
    sremrt_sink_puts(s, r->fc_within ? "within" : "interval");
    sremrt_sink_puts(s, q);
    const char *names[2] = {r->fc_within ? "k" : "from", "to"};
    int32_t values[2] = {r->fc_within ? r->fc_to : r->fc_from, r->fc_to};
    for (int k = 0; k < 2 - r->fc_within; k++) {
        sremrt_sink_puts(s, sep);
        sremrt_sink_puts(s, names[k]);
        sremrt_sink_puts(s, eq);
        sremrt_sink_i64(s, values[k]);
    }
    sremrt_sink_puts(s, sep);
    sremrt_sink_puts(s, "prob");
    sremrt_sink_puts(s, eq);
    put_prob(s, r->fc_prob);
    if (r->fc_within) {
        sremrt_sink_puts(s, sep);
        sremrt_sink_puts(s, "positive");
        sremrt_sink_puts(s, eq);
        sremrt_sink_puts(s, r->fc_positive ? "true" : "false");
    }
}

/* Suggestions come from one trie per pattern: they never carry a key. */
static int has_key(const sremrt_record *r)
{
    return (r->key || r->nkey > 0) && r->kind != SREMRT_SUGGEST && r->kind != SREMRT_ERROR;
}

static int has_exact(sremrt_kind k)
{
    return k == SREMRT_EPISODE || k == SREMRT_ALERT || k == SREMRT_SUMMARY;
}

static const char *str_or_empty(const char *s)
{
    return s ? s : "";
}

/* ---- JSONL --------------------------------------------------------------------- */

static void json_field(sremrt_sink *s, const char *name)
{
    sremrt_sink_puts(s, ",\"");
    sremrt_sink_puts(s, name);
    sremrt_sink_puts(s, "\":");
}

static void json_i64(sremrt_sink *s, const char *name, int64_t v)
{
    json_field(s, name);
    sremrt_sink_i64(s, v);
}

static void json_str(sremrt_sink *s, const char *name, const char *v)
{
    json_field(s, name);
    sremrt_sink_json_str(s, str_or_empty(v));
}

static void json_sequence(sremrt_sink *s, const sremrt_record *r)
{
    int i;
    json_field(s, "sequence");
    sremrt_sink_putc(s, '[');
    for (i = 0; i < r->nsequence; i++) {
        if (i)
            sremrt_sink_putc(s, ',');
        sremrt_sink_json_str(s, str_or_empty(r->sequence[i]));
    }
    sremrt_sink_putc(s, ']');
}

static void json_best(sremrt_sink *s, const sremrt_record *r)
{
    int i, k;
    json_field(s, "best");
    sremrt_sink_putc(s, '[');
    for (i = 0; i < r->nbest; i++) {
        const sremrt_best *b = &r->best[i];
        sremrt_sink_puts(s, i ? ",{\"candidate\":" : "{\"candidate\":");
        sremrt_sink_json_str(s, candidate_name(b->candidate));
        sremrt_sink_puts(s, ",\"sequence\":[");
        for (k = 0; k < b->nsequence; k++) {
            if (k)
                sremrt_sink_putc(s, ',');
            sremrt_sink_json_str(s, str_or_empty(b->sequence[k]));
        }
        sremrt_sink_puts(s, "]");
        json_i64(s, "freq", b->freq);
        json_field(s, "confidence");
        sremrt_sink_f64(s, b->confidence);
        sremrt_sink_putc(s, '}');
    }
    sremrt_sink_putc(s, ']');
}

/* An overflow record's counts: {"keys":1900,"runs":3}, the kinds counted. */
static void json_overflow(sremrt_sink *s, const uint64_t *counts)
{
    int k, first = 1;
    json_field(s, "overflow");
    sremrt_sink_putc(s, '{');
    for (k = 0; k < SREMRT_OVF_KINDS; k++) {
        if (!counts[k])
            continue;
        sremrt_sink_puts(s, first ? "\"" : ",\"");
        sremrt_sink_puts(s, sremrt_overflow_name((sremrt_overflow)k));
        sremrt_sink_puts(s, "\":");
        sremrt_sink_u64(s, counts[k]);
        first = 0;
    }
    sremrt_sink_putc(s, '}');
}

/* "occurrence":[30,38,42] (JSON) or "occurrence=[30,38,42]" (text). */
static void put_index_list(sremrt_sink *s, const int64_t *v, int32_t n)
{
    int32_t i;
    sremrt_sink_putc(s, '[');
    for (i = 0; i < n; i++) {
        if (i)
            sremrt_sink_putc(s, ',');
        sremrt_sink_i64(s, v[i]);
    }
    sremrt_sink_putc(s, ']');
}

/* A bound label is written when its index is known (0: the canonical parse
 * did not pass through it). */
static int bound(const sremrt_record *r, int32_t b)
{
    return r->bind && r->bind[b] > 0;
}

/* A record's event objects exist only with a schema (--events) and only for
 * the events the record names. */
static const void *bound_event(const sremrt_record *r, int32_t b)
{
    return r->schema && r->bind_events && bound(r, b) ? r->bind_events[b] : NULL;
}

static const void *start_event(const sremrt_record *r)
{
    return r->schema && r->start > 0 ? r->start_event : NULL;
}

/* An enum attribute's value name; NULL for an index outside its values. */
static const char *enum_name(const sremrt_attr *a, const void *event)
{
    int64_t v = sremrt_attr_int(a, event);
    return v >= 0 && v < a->nvalues && a->values ? a->values[v] : NULL;
}

/* One attribute's value as the CSV reader reads it back: numbers, the
 * shortest float text that round-trips, enum names, true/false. The caller
 * writes strings (JSON string literal or text word). */
static void put_attr_value(sremrt_sink *s, const sremrt_attr *a, const void *event,
                           const sremrt_strtab *st, void (*put_str)(sremrt_sink *, const char *))
{
    const char *name;
    switch (a->type) {
    case SREMRT_STRING:   /* an id the table does not know: null, as an enum's */
        name = st ? sremrt_strtab_get(st, sremrt_attr_int(a, event), NULL) : NULL;
        if (name)
            put_str(s, name);
        else
            sremrt_sink_puts(s, "null");
        break;
    case SREMRT_FLOAT:
        sremrt_sink_f64(s, sremrt_attr_float(a, event));
        break;
    case SREMRT_FLOAT32:   /* widened exactly, so narrowing gives the value back */
        sremrt_sink_f32(s, (float)sremrt_attr_float(a, event));
        break;
    case SREMRT_BOOL:
        sremrt_sink_puts(s, sremrt_attr_int(a, event) ? "true" : "false");
        break;
    case SREMRT_ENUM:
        name = enum_name(a, event);
        if (name)
            put_str(s, name);
        else
            sremrt_sink_puts(s, "null");
        break;
    default:   /* int, timestamp */
        sremrt_sink_i64(s, sremrt_attr_int(a, event));
        break;
    }
}

/* "NAME":{"attr":value,...} in schema order. */
static void json_event(sremrt_sink *s, const sremrt_record *r, const char *name,
                       const void *event, int first)
{
    const sremrt_schema *sc = r->schema;
    int a;
    if (!first)
        sremrt_sink_putc(s, ',');
    sremrt_sink_json_str(s, name);
    sremrt_sink_puts(s, ":{");
    for (a = 0; a < sc->nattrs; a++) {
        if (a)
            sremrt_sink_putc(s, ',');
        sremrt_sink_json_str(s, str_or_empty(sc->attrs[a].name));
        sremrt_sink_putc(s, ':');
        put_attr_value(s, &sc->attrs[a], event, r->strings, sremrt_sink_json_str);
    }
    sremrt_sink_putc(s, '}');
}

/* "start":4,"bind":{"x":4},"events":{"start":{...},"x":{...}} */
static void json_what_matched(sremrt_sink *s, const sremrt_record *r)
{
    int32_t b;
    int first = 1;
    if (r->start > 0)
        json_i64(s, "start", r->start);
    if (r->nbind > 0) {
        json_field(s, "bind");
        sremrt_sink_putc(s, '{');
        for (b = 0; b < r->nbind; b++) {
            if (!bound(r, b))
                continue;
            if (!first)
                sremrt_sink_putc(s, ',');
            sremrt_sink_json_str(s, str_or_empty(r->bind_names[b]));
            sremrt_sink_putc(s, ':');
            sremrt_sink_i64(s, r->bind[b]);
            first = 0;
        }
        sremrt_sink_putc(s, '}');
    }
    if (!r->schema)
        return;
    json_field(s, "events");
    sremrt_sink_putc(s, '{');
    first = 1;
    if (start_event(r)) {
        json_event(s, r, "start", start_event(r), first);
        first = 0;
    }
    for (b = 0; b < r->nbind; b++) {
        if (!bound_event(r, b))
            continue;
        json_event(s, r, str_or_empty(r->bind_names[b]), bound_event(r, b), first);
        first = 0;
    }
    sremrt_sink_putc(s, '}');
}

/* Field order as in docs/language.md section 6. */
static void emit_json(sremrt_sink *s, const sremrt_record *r)
{
    sremrt_sink_puts(s, "{\"kind\":");
    sremrt_sink_json_str(s, kind_name(r->kind));
    if (r->kind == SREMRT_ERROR && r->overflow) {
        json_str(s, "name", r->name);
        json_str(s, "message", r->message);
        json_overflow(s, r->overflow);
        sremrt_sink_puts(s, "}\n");
        return;
    }
    if (r->kind == SREMRT_ERROR) {
        json_i64(s, "line", r->line);
        json_str(s, "message", r->message);
        sremrt_sink_puts(s, "}\n");
        return;
    }
    json_str(s, "name", r->name);
    if (has_event(r->kind)) {
        json_i64(s, "index", r->index);
        if (r->has_ts)
            json_i64(s, "ts", r->ts);
    }
    if (has_key(r) && r->nkey > 0) {   /* a composite key: a typed JSON array */
        json_field(s, "key");
        sremrt_sink_key_tuple(s, r->key_attrs, r->key_values, r->nkey, r->strings);
    } else if (has_key(r)) {
        json_str(s, "key", r->key);
    }
    if (r->kind == SREMRT_SUGGEST) {
        json_str(s, "candidate", candidate_name(r->candidate));
        json_sequence(s, r);
    }
    if (r->kind == SREMRT_SUMMARY)
        json_i64(s, "events", r->events);
    if (has_match(r->kind))
        json_what_matched(s, r);
    if (r->kind == SREMRT_FORECAST)
        put_forecast(s, r, ",\"", "\":", 1);
    if (has_freq(r->kind))
        json_i64(s, "freq", r->freq);
    if (r->kind == SREMRT_EPISODE && r->occurrence) {
        json_field(s, "occurrence");
        put_index_list(s, r->occurrence, r->noccurrence);
    }
    if (r->kind == SREMRT_SUGGEST) {
        json_field(s, "confidence");
        sremrt_sink_f64(s, r->confidence);
    }
    if (r->kind == SREMRT_SUMMARY && r->best)
        json_best(s, r);
    if (has_exact(r->kind) && r->inexact)
        sremrt_sink_puts(s, ",\"exact\":false");
    sremrt_sink_puts(s, "}\n");
}

/* ---- text ---------------------------------------------------------------------- */

static void text_i64(sremrt_sink *s, const char *name, int64_t v)
{
    sremrt_sink_putc(s, ' ');
    sremrt_sink_puts(s, name);
    sremrt_sink_putc(s, '=');
    sremrt_sink_i64(s, v);
}

/* "extension=<A B C>" */
static void text_sequence(sremrt_sink *s, sremrt_candidate c, const char *const *seq, int n)
{
    int i;
    sremrt_sink_puts(s, candidate_name(c));
    sremrt_sink_puts(s, "=<");
    for (i = 0; i < n; i++) {
        if (i)
            sremrt_sink_putc(s, ' ');
        sremrt_sink_word(s, str_or_empty(seq[i]));
    }
    sremrt_sink_putc(s, '>');
}

/* " best=[variation=<A B X> freq=2 confidence=0.5, ...]" */
static void text_best(sremrt_sink *s, const sremrt_record *r)
{
    int i;
    sremrt_sink_puts(s, " best=[");
    for (i = 0; i < r->nbest; i++) {
        const sremrt_best *b = &r->best[i];
        if (i)
            sremrt_sink_puts(s, ", ");
        text_sequence(s, b->candidate, b->sequence, b->nsequence);
        text_i64(s, "freq", b->freq);
        sremrt_sink_puts(s, " confidence=");
        sremrt_sink_f64(s, b->confidence);
    }
    sremrt_sink_putc(s, ']');
}

/* "  NAME attr=value ...": one event of a text record, on its own line. */
static void text_event(sremrt_sink *s, const sremrt_record *r, const char *name,
                       const void *event)
{
    const sremrt_schema *sc = r->schema;
    int a;
    sremrt_sink_puts(s, "\n  ");
    sremrt_sink_word(s, name);
    for (a = 0; a < sc->nattrs; a++) {
        sremrt_sink_putc(s, ' ');
        sremrt_sink_word(s, str_or_empty(sc->attrs[a].name));
        sremrt_sink_putc(s, '=');
        put_attr_value(s, &sc->attrs[a], event, r->strings, sremrt_sink_word);
    }
}

/* " start=4 bind.x=4" ("bind={}" when no label is bound); the events, if
 * any, go on the lines after the record's (the caller ends the last). */
static void text_what_matched(sremrt_sink *s, const sremrt_record *r)
{
    int32_t b;
    int any = 0;
    if (r->start > 0)
        text_i64(s, "start", r->start);
    for (b = 0; b < r->nbind; b++) {
        if (!bound(r, b))
            continue;
        sremrt_sink_puts(s, " bind.");
        sremrt_sink_word(s, str_or_empty(r->bind_names[b]));
        sremrt_sink_putc(s, '=');
        sremrt_sink_i64(s, r->bind[b]);
        any = 1;
    }
    if (r->nbind > 0 && !any)
        sremrt_sink_puts(s, " bind={}");
}

static void text_events(sremrt_sink *s, const sremrt_record *r)
{
    int32_t b;
    if (start_event(r))
        text_event(s, r, "start", start_event(r));
    for (b = 0; b < r->nbind; b++)
        if (bound_event(r, b))
            text_event(s, r, str_or_empty(r->bind_names[b]), bound_event(r, b));
}

/* "KIND NAME index=I ts=T key=K ...": the JSONL fields as name=value, in
 * the same order; values that are not plain words are quoted. */
static void emit_text(sremrt_sink *s, const sremrt_record *r)
{
    sremrt_sink_puts(s, kind_name(r->kind));
    if (r->kind == SREMRT_ERROR && r->overflow) {   /* "error NAME: overflow: ..." */
        sremrt_sink_putc(s, ' ');
        sremrt_sink_word(s, str_or_empty(r->name));
        sremrt_sink_puts(s, ": ");
        sremrt_sink_text(s, str_or_empty(r->message));
        sremrt_sink_putc(s, '\n');
        return;
    }
    if (r->kind == SREMRT_ERROR) {
        sremrt_sink_puts(s, " line ");
        sremrt_sink_i64(s, r->line);
        sremrt_sink_puts(s, ": ");
        sremrt_sink_text(s, str_or_empty(r->message));
        sremrt_sink_putc(s, '\n');
        return;
    }
    sremrt_sink_putc(s, ' ');
    sremrt_sink_word(s, str_or_empty(r->name));
    if (has_event(r->kind)) {
        text_i64(s, "index", r->index);
        if (r->has_ts)
            text_i64(s, "ts", r->ts);
    }
    if (has_key(r)) {
        sremrt_sink_puts(s, " key=");
        if (r->nkey > 0)   /* the JSON array, as JSONL writes it (its strings quoted) */
            sremrt_sink_key_tuple(s, r->key_attrs, r->key_values, r->nkey, r->strings);
        else
            sremrt_sink_word(s, r->key);
    }
    if (r->kind == SREMRT_SUGGEST) {
        sremrt_sink_putc(s, ' ');
        text_sequence(s, r->candidate, r->sequence, r->nsequence);
    }
    if (r->kind == SREMRT_SUMMARY)
        text_i64(s, "events", r->events);
    if (has_match(r->kind))
        text_what_matched(s, r);
    if (r->kind == SREMRT_FORECAST)
        put_forecast(s, r, " ", "=", 0);
    if (has_freq(r->kind))
        text_i64(s, "freq", r->freq);
    if (r->kind == SREMRT_EPISODE && r->occurrence) {
        sremrt_sink_puts(s, " occurrence=");
        put_index_list(s, r->occurrence, r->noccurrence);
    }
    if (r->kind == SREMRT_SUGGEST) {
        sremrt_sink_puts(s, " confidence=");
        sremrt_sink_f64(s, r->confidence);
    }
    if (r->kind == SREMRT_SUMMARY && r->best)
        text_best(s, r);
    if (has_exact(r->kind) && r->inexact)
        sremrt_sink_puts(s, " exact=false");
    if (has_match(r->kind))
        text_events(s, r);
    sremrt_sink_putc(s, '\n');
}

void sremrt_record_emit(sremrt_sink *s, sremrt_format f, const sremrt_record *r)
{
    if (f == SREMRT_JSONL)
        emit_json(s, r);
    else
        emit_text(s, r);
}

size_t sremrt_record_format(char *buf, size_t cap, sremrt_format f, const sremrt_record *r)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, cap);
    sremrt_record_emit(&s, f, r);
    return sremrt_sink_end(&s);
}
