/* board_host.c: the board on a PC, for tests. The sensor interrupt is
 * simulated by a seeded script of readings from 9 sensors (one more than
 * the 8 partition keys the matcher was generated for: the ninth is counted
 * as an overflow, never a memory error), delivered one to three per
 * wake-up; the UART is standard output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"

#define READINGS 2400
#define SENSORS 9

static uint32_t lcg = 12345u;

static uint32_t next_random(uint32_t n)
{
    lcg = lcg * 1103515245u + 12345u;
    return (lcg >> 16) % n;
}

static int produced;

/* Reading i: mostly temperatures of 20-25 degrees, a door now and then, and
 * scripted incidents: a fire at sensor 3, a jump at sensor 2, two door
 * storms, one reading from a clock that went backwards. */
static sensors_event reading(int i)
{
    sensors_event e;
    e.sensor = i % SENSORS;
    e.time = (int64_t)i * 250;
    e.kind = 0;   /* temp */
    e.value = 20.0 + (double)next_random(50) / 10.0;
    if (next_random(400) == 0)
        e.kind = 2;   /* door */
    if (i == 300 && e.sensor == 3)
        e.value = 72.5;
    if (i == 327 && e.sensor == 3)
        e.kind = 1;   /* smoke, 6.75 s after the hot reading */
    if (i == 902 && e.sensor == 2)
        e.value = 24.0;
    if (i == 911 && e.sensor == 2)
        e.value = 41.5;
    if (i >= 1500 && i < 1520 && i % 3 == 0)
        e.kind = 2;
    if (i == 2000)
        e.time -= 5000;
    return e;
}

void board_uart_write(const char *p, size_t n)
{
    fwrite(p, 1, n, stdout);
}

void board_alarm(board_alarm_kind kind)
{
    static const char *const names[] = {"fire", "jump", "doors"};
    printf("  -> alarm output: %s\n", names[kind]);
}

int board_wait_for_interrupt(void)
{
    int burst = 1 + (int)next_random(3);
    if (produced >= READINGS)
        return 0;
    for (int k = 0; k < burst && produced < READINGS; k++) {
        sensors_event e = reading(produced++);
        sensor_isr(&e);
    }
    return 1;
}

void board_panic(const char *why)
{
    fprintf(stderr, "panic: %s\n", why);
    exit(1);
}

int main(void)
{
    return firmware_main();
}
