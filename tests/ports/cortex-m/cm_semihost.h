/* ARM semihosting for the QEMU test harness (no libc): text out and exit through `bkpt 0xAB`.
 * QEMU must run with -semihosting-config enable=on,target=native. */
#ifndef CM_SEMIHOST_H
#define CM_SEMIHOST_H

#include <stdint.h>

/* Write a NUL-terminated string to the host's stdout (SYS_WRITE0). */
void cm_sh_puts(const char *s);
/* Write "0x" + 8 hex digits. */
void cm_sh_put_hex32(uint32_t v);
/* Write bytes as lowercase hex, 32 bytes (64 digits) per line. */
void cm_sh_put_hexdump(const uint8_t *p, uint32_t len);
/* End the emulation: status 0 -> QEMU exits 0, anything else -> QEMU exits 1 (SYS_EXIT). */
void cm_sh_exit(int status) __attribute__((noreturn));

#endif
