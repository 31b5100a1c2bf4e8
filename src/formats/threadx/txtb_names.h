/* Host-side naming for TXTB: event names (ThreadX table plus FileX/NetX/USBX ranges), object type
 * names and thread states, all generated from txtb_defs.h. */
#ifndef EVT_TXTB_NAMES_H
#define EVT_TXTB_NAMES_H

#include <stdint.h>

typedef struct txtb_event_info {
    uint32_t id;
    const char *name;  /* without TX_TRACE_ (ThreadX) or the product prefix */
    uint32_t filter;   /* filter bit */
    int kind;          /* TXTB_K_* */
} txtb_event_info;

/* Known event (ThreadX, FileX, NetX, USBX tables), or NULL. */
const txtb_event_info *txtb_event_lookup(uint32_t id);
/* The combined table (ThreadX + FileX/NetX/USBX), for tests and listings: entry i, or NULL. */
const txtb_event_info *txtb_event_at(unsigned i);
/* Name for any id: known name, "USER_<id>" in the user range, "FILEX_<id>"/"NETX_<id>"/"USBX_<id>"
 * in those ranges, else "UNKNOWN_<id>". Uses buf (>= 32 bytes) when it must format. */
const char *txtb_event_name(uint32_t id, char *buf, unsigned buflen);
/* Registry object type name ("thread", "fx_media", ...), "type_<n>" style in buf if unknown. */
const char *txtb_objtype_name(unsigned type, char *buf, unsigned buflen);
/* Thread state name (TX_READY ... TX_PRIORITY_CHANGE), or NULL. */
const char *txtb_thread_state_name(uint32_t state);

#endif
