/* sremrt.h: every runtime header at once, for generated programs' main;
 * generated matchers include only what they use. */
#ifndef SREMRT_SREMRT_H
#define SREMRT_SREMRT_H

#include "abi.h"
#include "absq.h"
#include "alloc.h"
#include "bin.h"
#include "csv.h"
#include "episode.h"
#include "explore.h"
#include "isotime.h"
#include "jsonl.h"
#include "keymap.h"
#include "num.h"
#include "occmap.h"
#include "out.h"
#include "ptrie.h"
#include "reorder.h"
#include "schema.h"
#include "sink.h"
#include "state.h"
#include "stats.h"
#include "strtab.h"
#include "tsorder.h"

#endif
