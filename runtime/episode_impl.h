/* episode_impl.h: what episode.c (the counter, nonoverlapped, the OccMap
 * greedy) and episode_conf.c (distinct frequency by configurations) share.
 * Not installed. */
#ifndef SREMRT_EPISODE_IMPL_H
#define SREMRT_EPISODE_IMPL_H

#include "sremrt/episode.h"

/* ep->mode: what push does (0: init failed, push refuses). */
enum {
    SREMRT_EP_NONE,
    SREMRT_EP_ONE,            /* k = 1: every event of E_1 counts */
    SREMRT_EP_NONOVERLAPPED,
    SREMRT_EP_GREEDY,         /* distinct, OccMap greedy */
    SREMRT_EP_CONFIGS         /* distinct, configurations */
};

/* A free event of a configuration: position, timestamp, and the elements
 * (bit m - 1 for E_m, m < k) it may still play. */
typedef struct ep_ev {
    int64_t pos;
    int64_t ts;
    uint32_t mask;
    uint32_t pad;
} ep_ev;

/* A configuration slot: this header, then list_cap ep_ev. */
typedef struct ep_conf {
    int64_t count;         /* occurrences counted */
    int32_t n;             /* free events, ascending positions */
    int32_t single;        /* every free event plays exactly one element */
    uint32_t roles;        /* union of the free events' elements */
    int32_t starts;        /* free events that may play E_1 */
} ep_conf;

#define EP_NONE INT32_MAX

static inline int sremrt_ep_in_window(const sremrt_episode *ep, int64_t spos, int64_t sts, int64_t pos, int64_t ts)
{
    if (ep->cfg.window == SREMRT_EPISODE_TIME)
        return (uint64_t)ts - (uint64_t)sts <= (uint64_t)ep->cfg.width;
    return (uint64_t)pos - (uint64_t)spos < (uint64_t)ep->cfg.width;
}

/* Index of the lowest set bit of x != 0 (de Bruijn). */
static inline int32_t sremrt_ep_low_bit(uint32_t x)
{
    static const unsigned char table[32] = {
        0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
        31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9
    };
    return table[((x & (~x + 1u)) * 0x077CB531u) >> 27];
}

/* The OccMap's free events become the one configuration (mode CONFIGS). */
void sremrt_episode_conf_enter(sremrt_episode *ep);

/* One event with mask != 0 in mode CONFIGS; goes back to the OccMap
 * (mode GREEDY) when one configuration of single-element events is left. */
void sremrt_episode_conf_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask);

#endif
