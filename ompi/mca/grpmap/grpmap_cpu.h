/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What the CPU offers the popcount-heavy forms (bitmap, ef): each picks,
 * per map at build time, one of three builds of its SELECT and RANK:
 * 0 generic (SWAR popcount: without -mpopcnt the builtin is a call into
 * libgcc), 1 popcnt, 2 popcnt + BMI/BMI2's pdep for the select in a word
 * (Intel, and AMD from Zen 3, family 19h, on: the AMD CPUs before run pdep
 * in microcode); grpmap_bitvec.h holds what each level does to a word.
 * Plain C, like grpmap_repr.h.
 */
#ifndef OMPI_MCA_GRPMAP_CPU_H
#define OMPI_MCA_GRPMAP_CPU_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(GRPMAP_NO_CPU_DISPATCH)
#define GRPMAP_CPU_DISPATCH 1
#include <cpuid.h>
#endif
#ifndef GRPMAP_CPU_LEVEL_MAX /* tests lower it to run the other builds */
#define GRPMAP_CPU_LEVEL_MAX 2
#endif
/* the level of the generic build: SWAR where the builtin may be a call */
#if defined(__x86_64__) && !defined(__POPCNT__)
#define GRPMAP_CPU_GENERIC 0
#else
#define GRPMAP_CPU_GENERIC 1
#endif

#if defined(GRPMAP_CPU_DISPATCH)
/* Defines `static ret name(const map_t *m, arg_t x)`, compiled with the
 * target attribute attr, as body(m, x, level): one CPU level's build of a
 * form's SELECT or RANK (body is static inline, so it is compiled anew
 * under attr; the form's dispatcher calls name directly). */
#define GRPMAP_CPU_BUILD(attr, ret, name, map_t, arg_t, body, level)                       \
    attr static ret name(const map_t *m, arg_t x)                                          \
    {                                                                                      \
        return body(m, x, level);                                                          \
    }

static inline int grpmap_cpu_level(void)
{
    int lvl = GRPMAP_CPU_GENERIC;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt")) {
        lvl = 1;
        if (__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) {
            if (__builtin_cpu_is("intel")) {
                lvl = 2;
            } else if (__builtin_cpu_is("amd")) {
                unsigned a, b, c, d, fam;
                if (__get_cpuid(1, &a, &b, &c, &d)) {
                    fam = (a >> 8) & 0xf;
                    if (0xf == fam) {
                        fam += (a >> 20) & 0xff;
                    }
                    lvl = fam >= 0x19 ? 2 : 1;
                }
            }
        }
    }
    return lvl < GRPMAP_CPU_LEVEL_MAX ? lvl : GRPMAP_CPU_LEVEL_MAX;
}
#endif

#endif /* OMPI_MCA_GRPMAP_CPU_H */
