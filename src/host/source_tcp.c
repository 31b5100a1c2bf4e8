/* TCP client as a stream source (--connect HOST:PORT): the RTT servers of debug probes (OpenOCD
 * `rtt server start`, pyOCD's RTT channel port, the J-Link GDB server's RTT telnet port) send the
 * up buffer's bytes on a TCP port; so does any bridge. The socket part is source_sock.c's. No
 * reconnect. */
#include "evtrace/source_remote.h"

#include <string.h>
#include "source_remote_impl.h"

evt_status evt_source_connect(evt_source *src, const char *spec, unsigned idle_ms, char *err, size_t errlen)
{
    memset(src, 0, sizeof *src);
    int fd = evt_remote_connect(spec, "--connect", idle_ms, err, errlen);
    if (fd < 0) return fd == -2 ? EVT_ERR_USAGE : EVT_ERR_IO;
    return evt_remote_stream(src, fd, spec, idle_ms, err, errlen);
}
