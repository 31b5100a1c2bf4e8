/* Semihosting calls of the QEMU harness: r0 = operation, r1 = argument, `bkpt 0xAB`. */
#include "cm_semihost.h"

#define SH_SYS_WRITE0 0x04u
#define SH_SYS_EXIT   0x18u
#define SH_ADP_STOPPED_APPLICATION_EXIT 0x20026u /* QEMU exits 0 */
#define SH_ADP_STOPPED_RUNTIME_ERROR    0x20023u /* QEMU exits 1 */

static uint32_t sh_call(uint32_t op, uint32_t arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register uint32_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void cm_sh_puts(const char *s) { (void)sh_call(SH_SYS_WRITE0, (uint32_t)(uintptr_t)s); }

static char hex_digit(unsigned v) { return (char)(v < 10u ? '0' + v : 'a' + (v - 10u)); }

void cm_sh_put_hex32(uint32_t v)
{
    char s[11];
    s[0] = '0';
    s[1] = 'x';
    for (unsigned i = 0; i < 8u; i++)
        s[2 + i] = hex_digit((v >> (28u - 4u * i)) & 0xFu);
    s[10] = '\0';
    cm_sh_puts(s);
}

void cm_sh_put_hexdump(const uint8_t *p, uint32_t len)
{
    char line[2 * 32 + 2];
    uint32_t i = 0;
    while (i < len) {
        unsigned n = 0;
        for (; n < 32u && i < len; n++, i++) {
            line[2 * n] = hex_digit(p[i] >> 4);
            line[2 * n + 1] = hex_digit(p[i] & 0xFu);
        }
        line[2 * n] = '\n';
        line[2 * n + 1] = '\0';
        cm_sh_puts(line);
    }
}

void cm_sh_exit(int status)
{
    (void)sh_call(SH_SYS_EXIT, status == 0 ? SH_ADP_STOPPED_APPLICATION_EXIT : SH_ADP_STOPPED_RUNTIME_ERROR);
    for (;;) {
    }
}
