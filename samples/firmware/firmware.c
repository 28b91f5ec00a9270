/* firmware.c: a sensor node's main loop around the matcher sremc generated
 * from sensors.srem with --freestanding. No stdio, no malloc: the matcher,
 * its partition tables and episode counters live in static memory sized by
 * sensors_ARENA_BYTES. The sensor interrupt only copies readings into a
 * ring buffer; the main loop feeds them to the matcher, whose records
 * raise alarms and go to the UART as text lines. */
#include <stdint.h>
#include <string.h>

#include "board.h"

/* Readings between the interrupt and the main loop; a power of two. */
#define RING_SIZE 64

static struct {
    sensors_event ev[RING_SIZE];
    volatile uint32_t head;       /* written by the interrupt only */
    volatile uint32_t tail;       /* written by the main loop only */
    volatile uint32_t dropped;    /* readings lost to a full ring */
} ring;

static unsigned char arena_mem[sensors_ARENA_BYTES];
static sremrt_arena arena;
static sensors_matcher matcher;   /* the type is complete in --freestanding code */

void sensor_isr(const sensors_event *e)
{
    uint32_t head = ring.head;
    if (head - ring.tail == RING_SIZE) {
        ring.dropped++;
        return;
    }
    ring.ev[head % RING_SIZE] = *e;
    ring.head = head + 1;   /* publish after the copy */
}

static void uart_puts(const char *s)
{
    board_uart_write(s, strlen(s));
}

static void uart_u64(const char *label, uint64_t v)
{
    char buf[24];
    int i = (int)sizeof buf;
    buf[--i] = '\0';
    do
        buf[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    uart_puts(label);
    uart_puts(buf + i);
}

/* Each record: to the UART as a text line; matches and alerts raise alarms. */
static void on_record(void *user, const sremrt_record *r)
{
    char line[192];
    sremrt_record text = *r;   /* start and bindings, not the events' attributes */
    text.schema = NULL;
    size_t n = sremrt_record_format(line, sizeof line, SREMRT_TEXT, &text);
    (void)user;
    board_uart_write(line, n < sizeof line ? n : sizeof line - 1);
    if (r->kind == SREMRT_MATCH && strcmp(r->name, "fire") == 0)
        board_alarm(ALARM_FIRE);
    else if (r->kind == SREMRT_MATCH && strcmp(r->name, "jump") == 0)
        board_alarm(ALARM_JUMP);
    else if (r->kind == SREMRT_ALERT)
        board_alarm(ALARM_DOORS);
}

int firmware_main(void)
{
    sensors_config cfg;
    sensors_config_default(&cfg);   /* the capacities the arena was sized for */
    cfg.record = on_record;
    sremrt_arena_init(&arena, arena_mem, sizeof arena_mem);
    cfg.alloc = sremrt_arena_hook(&arena);
    if (sensors_init(&matcher, &cfg) != 0)
        board_panic("matcher init");

    while (board_wait_for_interrupt()) {
        while (ring.tail != ring.head) {
            sensors_event e = ring.ev[ring.tail % RING_SIZE];
            ring.tail++;
            sensors_push(&matcher, &e);   /* a reading out of time order is counted, skipped */
        }
    }

    sensors_finish(&matcher);   /* the door_storm summary */
    const sremrt_stats *st = sensors_stats(&matcher);
    uart_u64("events=", st->events);
    uart_u64(" rejected=", st->rejected);
    uart_u64(" overflows=", sremrt_stats_overflows(st));
    uart_u64(" memory=", st->overflow[SREMRT_OVF_MEMORY]);
    uart_u64(" dropped=", ring.dropped);
    uart_u64(" arena=", arena.peak);
    uart_u64("/", (uint64_t)sizeof arena_mem);
    uart_puts("\n");
    sensors_free(&matcher);
    return 0;
}
