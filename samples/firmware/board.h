/* board.h: what the firmware needs from its board. board_host.c implements
 * it on a PC (a simulated sensor interrupt, the UART on stdout), for tests;
 * board_arm.c for a Cortex-M4 (memory-mapped UART, WFI). */
#ifndef BOARD_H
#define BOARD_H

#include <stddef.h>

#include "sensors.h"

typedef enum board_alarm_kind { ALARM_FIRE, ALARM_JUMP, ALARM_DOORS } board_alarm_kind;

/* Sends n bytes to the debug UART. */
void board_uart_write(const char *p, size_t n);

/* Raises an alarm output (a GPIO, a buzzer). */
void board_alarm(board_alarm_kind kind);

/* Sleeps until an interrupt; the sensor interrupt calls sensor_isr. Returns
 * 0 when the board shuts down (the host simulation ran out of readings). */
int board_wait_for_interrupt(void);

/* Stops everything: an unrecoverable error. */
void board_panic(const char *why);

/* The firmware's sensor interrupt handler (firmware.c). */
void sensor_isr(const sensors_event *e);

/* The firmware's main loop (firmware.c); returns when the board shuts down. */
int firmware_main(void);

#endif
