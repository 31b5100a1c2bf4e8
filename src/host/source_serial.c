/* Serial devices as stream sources: the tty is opened without becoming the controlling terminal
 * and set to raw 8N1 at the requested speed, so trace bytes arrive untouched (no echo, no CR/LF
 * mapping, no flow-control characters swallowed). */
#define _DEFAULT_SOURCE /* cfmakeraw, CRTSCTS, Linux baud constants */
#include "evtrace/source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* Standard rates termios names. */
#define BAUD_TABLE(X) X(1200) X(2400) X(4800) X(9600) X(19200) X(38400) X(57600) X(115200) \
    X(230400) X(460800) X(500000) X(576000) X(921600) X(1000000) X(1500000) X(2000000)

static int baud_const(unsigned baud, speed_t *out)
{
    switch (baud) {
#define BAUD_CASE_(b) case b: *out = B##b; return 1;
        BAUD_TABLE(BAUD_CASE_)
#undef BAUD_CASE_
    default: return 0;
    }
}

evt_status evt_source_open_serial(evt_source *src, const char *dev, unsigned baud, unsigned idle_ms,
                                  char *err, size_t errlen)
{
    speed_t sp = 0;
    if (baud && !baud_const(baud, &sp)) {
        snprintf(err, errlen, "unsupported baud rate %u (use one of 1200 .. 2000000 that termios names)", baud);
        return EVT_ERR_USAGE;
    }
    int fd = open(dev, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return EVT_ERR_IO;
    }
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        snprintf(err, errlen, "not a serial device (tcgetattr: %s)", strerror(errno));
        close(fd);
        return EVT_ERR_IO;
    }
    cfmakeraw(&t);
    t.c_cflag |= CLOCAL | CREAD;
    t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
    t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
    t.c_cc[VMIN] = 1;  /* read blocks for at least one byte; idle limits come from poll() */
    t.c_cc[VTIME] = 0;
    if (baud && (cfsetispeed(&t, sp) != 0 || cfsetospeed(&t, sp) != 0)) {
        snprintf(err, errlen, "cannot set %u baud: %s", baud, strerror(errno));
        close(fd);
        return EVT_ERR_IO;
    }
    if (tcsetattr(fd, TCSANOW, &t) != 0) {
        snprintf(err, errlen, "cannot set raw mode: %s", strerror(errno));
        close(fd);
        return EVT_ERR_IO;
    }
    evt_status st = evt_source_open_stream(src, fd, dev, 0, idle_ms);
    if (st != EVT_OK) {
        snprintf(err, errlen, "out of memory");
        evt_source_close(src);
        if (src->fd != fd) close(fd);
    }
    return st;
}
