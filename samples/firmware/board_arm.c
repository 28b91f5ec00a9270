/* board_arm.c: the board on a Cortex-M4 (a sketch: addresses are those of
 * a generic part; adapt them to yours). The UART is a memory-mapped data
 * register; the sensor ADC's interrupt handler would fill a reading and call
 * sensor_isr. Built in `make check` to measure code size and RAM. */
#include <stdint.h>

#include "board.h"

#define UART_DR (*(volatile uint32_t *)0x40004404u)
#define GPIO_ODR (*(volatile uint32_t *)0x48000014u)

void board_uart_write(const char *p, size_t n)
{
    while (n--)
        UART_DR = (uint8_t)*p++;
}

void board_alarm(board_alarm_kind kind)
{
    GPIO_ODR |= 1u << (unsigned)kind;
}

int board_wait_for_interrupt(void)
{
    __asm volatile("wfi");
    return 1;
}

void board_panic(const char *why)
{
    board_uart_write("panic\n", 6);
    (void)why;
    for (;;)
        __asm volatile("bkpt #0");
}

/* The ADC conversion-complete interrupt: one reading. */
void ADC_IRQHandler(void)
{
    static int64_t ms;
    sensors_event e = {0, 1, 0.0, 0};
    e.value = (double)(*(volatile uint32_t *)0x50000040u & 0xfffu) * 0.05;
    e.time = ms += 250;
    sensor_isr(&e);
}

int main(void)
{
    return firmware_main();
}
