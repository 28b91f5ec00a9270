/* bin_events.c: writes the --input bin stream of tests/fault/run.sh's bin
 * case: fire_event records (samples/fire.srem) with an enum index and a
 * bool out of range, a timestamp going backwards, and half a record. */
#include <stdio.h>
#include <string.h>

#include "fire.h"

static void put(int32_t type, int64_t id, double value, uint8_t ok, int64_t time, size_t bytes)
{
    fire_event e;
    memset(&e, 0, sizeof e);   /* padding too: the stream is reproducible */
    e.type = type;
    e.id = id;
    e.value = value;
    e.ok = ok;
    e.time = time;
    fwrite(&e, 1, bytes, stdout);
}

int main(void)
{
    put(0, 1, 20, 1, 1000, sizeof(fire_event));   /* T */
    put(7, 1, 65, 1, 1001, sizeof(fire_event));   /* no enum value 7 */
    put(1, 1, 65, 2, 1001, sizeof(fire_event));   /* bool 2 */
    put(1, 1, 65, 1, 999, sizeof(fire_event));    /* backwards */
    put(1, 1, 65, 1, 1002, sizeof(fire_event));   /* H: fire, index 2 */
    put(1, 1, 65, 1, 1003, sizeof(fire_event) / 2);
    return fflush(stdout) != 0;
}
