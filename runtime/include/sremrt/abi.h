/* abi.h: the version of the layouts generated matchers share with the
 * runtime (schema descriptors, records, configs); both sides check it. */
#ifndef SREMRT_ABI_H
#define SREMRT_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bump on any change to a struct or enum in runtime/include/sremrt/ that
 * generated code fills in or reads. */
#define SREMRT_ABI_VERSION 11

/* Compile-time check for generated files, at file scope:
 *     SREMRT_ABI_REQUIRE(fire, 1);
 * fails to compile (negative array size) when the headers the file is built
 * against carry another version. NAME makes the typedef unique per file. */
#define SREMRT_ABI_REQUIRE(name, version) \
    typedef char name##_sremrt_abi_check[(version) == SREMRT_ABI_VERSION ? 1 : -1]

/* Run-time check at init, for a library built from other headers than the
 * generated file: returns 0 if the library speaks `version`, else -1. */
int sremrt_abi_check(int version);

/* The version the library was built with. */
int sremrt_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif
