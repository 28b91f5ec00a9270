/* abi.c: the ABI version compiled into the library, for generated code's
 * check at init (see abi.h). */
#include "sremrt/abi.h"

int sremrt_abi_check(int version)
{
    return version == SREMRT_ABI_VERSION ? 0 : -1;
}

int sremrt_abi_version(void)
{
    return SREMRT_ABI_VERSION;
}
