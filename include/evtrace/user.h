/* User events people read: printf-style text, plotted values, intervals and state machines,
 * recorded as arguments (never formatted on the target) through the configured recorder (TXTB or
 * XRay; docs/user-events.md). Usable from threads, interrupts and signal handlers; no allocation;
 * while the recorder is off or filters user events, a call is one load and one branch (its
 * arguments are not evaluated, no clock is read). Every record that passes the gate and cannot be
 * written is counted by the recorder's loss account and reported in the trace.
 *
 *   evt_printf("adc", "ch %u: %d mV (%s)", ch, mv, name);   printf text, formatted on the host
 *   evt_value("temp", t);                                    an int64 sample: a plotted lane
 *   evt_interval_begin("dma", id); evt_interval_end("dma", id);  a slice per id
 *   EVT_STATE_MACHINE(motor, "motor", "idle,spin_up,run,fault"); evt_state(motor, 2);
 *
 * Channel names, formats and state names must be string literals: each call site becomes a const
 * "site" (evtrace/user_defs.h) holding them and the argument types (found at compile time by
 * _Generic, GCC/Clang or C11; by overloads in C++11), and a record carries only the site's address and the argument
 * values. The host learns the sites one of two ways:
 *  - registered (default): the first call of a site in a session writes a SITE record with its
 *    strings (evt_user_resend() starts a new session: call it after each enable, and from the
 *    buffer-full callback of a flight ring that may overwrite them);
 *  - ELF (EVT_CFG_USER_ELF 1): the sites go into section ".evt_user", which a target's linker
 *    script keeps out of the image (`.evt_user (INFO) : { KEEP(*(.evt_user)) }`); records carry
 *    only addresses, and the host reads the sites from the firmware file (`evtrace --elf FILE`).
 *    One ANCHOR record per session lets it relocate position-independent programs.
 *
 * Arguments: up to 8; integers of every width, pointers, float/double (long double is recorded as
 * a double), and char * strings copied up to EVT_CFG_USER_STR_MAX bytes (longer ones are cut and
 * flagged). A char * is always recorded as a string: cast it to (void *) to print its address.
 *
 * Configuration (the user's header EVT_CFG_USER_HEADER first, then these defaults):
 *   EVT_CFG_USER           1      0: every macro compiles to nothing (arguments not evaluated)
 *   EVT_CFG_USER_BACKEND   txtb   a bare token: txtb (evtrace/txtb.h), xray (evtrace/xray.h), rkh
 *                                 (evtrace/rkh.h: the recorder given to evt_rkh_user_attach) or etw
 *                                 (evtrace/etw.h: the session given to evt_etw_user_attach)
 *   EVT_CFG_USER_ELF       0      1: sites in section .evt_user, strings from the ELF file
 *   EVT_CFG_USER_STR_MAX   32     bytes of a %s argument recorded (1..4095); also sizes the
 *                                 stack buffer of a call (about 8 * (STR_MAX + 8) bytes) */
#ifndef EVTRACE_USER_H
#define EVTRACE_USER_H

#include <stdint.h>
#include "evtrace/user_defs.h"
#include "evtrace/etw.h"
#include "evtrace/rkh.h"
#include "evtrace/txtb.h"
#include "evtrace/xray.h"

#ifdef EVT_CFG_USER_HEADER
#include EVT_CFG_USER_HEADER
#endif
#ifndef EVT_CFG_USER
#define EVT_CFG_USER 1
#endif
#ifndef EVT_CFG_USER_BACKEND
#define EVT_CFG_USER_BACKEND txtb
#endif
#ifndef EVT_CFG_USER_ELF
#define EVT_CFG_USER_ELF 0
#endif
#ifndef EVT_CFG_USER_STR_MAX
#define EVT_CFG_USER_STR_MAX 32
#endif
#if EVT_CFG_USER_STR_MAX < 1 || EVT_CFG_USER_STR_MAX > 4095
#error "EVT_CFG_USER_STR_MAX must be 1..4095"
#endif
#if (EVT_CFG_USER != 0 && EVT_CFG_USER != 1) || (EVT_CFG_USER_ELF != 0 && EVT_CFG_USER_ELF != 1)
#error "EVT_CFG_USER and EVT_CFG_USER_ELF must be 0 or 1"
#endif

/* Words of the largest record a call builds: the site, then 8 arguments of at most 2 words or a
 * cut string (header + STR_MAX bytes). Checked by the encoder against EVT_USER_PAYLOAD_MAX. */
#define EVT_USER_CALL_WORDS_ (1u + EVT_USER_MAX_ARGS * (1u + ((EVT_CFG_USER_STR_MAX) + 3u) / 4u))

#ifdef __cplusplus
extern "C" {
#endif

/* Start a new session of registered strings: every site writes its SITE record again at its next
 * call (and, in ELF mode, the next call writes the ANCHOR record). Safe from any context. */
void evt_user_resend(void);

/* ---- the backends: each defines these, evt_<b>_user_<what> ------------------------------------
 *   printf_(site, sent, fmt, ...): a PRINTF site's call (arguments per its signature)
 *   u32_(site, sent, v) / i64_(site, sent, v): a site with one U32 / I64 argument
 *   i3_(site, sent, n, a, b, c): a PRINTF site whose n - 1 <= 3 arguments are one-word integers
 *       (EVT_USER_SITE_F_INTS), as words (unused ones 0): no va_list
 *   write(rec, words, n): one whole record (TXTB: consecutive slots; XRay: a typed event);
 *       returns 1 if written, 0 if off, filtered or dropped (counted)
 * sent: the site's "SITE record written in session" word (NULL in ELF mode). */
#if defined(__GNUC__) || defined(__clang__)
#define EVT_USER_PRINTF_ATTR_ __attribute__((format(printf, 3, 4)))
#else
#define EVT_USER_PRINTF_ATTR_
#endif
#define EVT_USER_DECLARE_BACKEND_(b)                                                                   \
    void evt_##b##_user_printf_(const evt_user_site_hdr *site, uint32_t *sent, const char *fmt, ...)    \
        EVT_USER_PRINTF_ATTR_;                                                                          \
    void evt_##b##_user_u32_(const evt_user_site_hdr *site, uint32_t *sent, uint32_t v);                \
    void evt_##b##_user_i64_(const evt_user_site_hdr *site, uint32_t *sent, int64_t v);                 \
    void evt_##b##_user_i3_(const evt_user_site_hdr *site, uint32_t *sent, uint32_t n, uint32_t a,      \
                            uint32_t c, uint32_t d);                                                    \
    int evt_##b##_user_write(unsigned rec, const uint32_t *words, uint32_t n);
EVT_USER_DECLARE_BACKEND_(txtb)
EVT_USER_DECLARE_BACKEND_(xray)
EVT_USER_DECLARE_BACKEND_(rkh)
EVT_USER_DECLARE_BACKEND_(etw)

/* RKH: the recorder user events go to (NULL: none). attach enables and names the record
 * (evtrace/user_defs.h, RKH carrier); call it after evt_rkh_init, before the first user event. */
void evt_rkh_user_attach(evt_rkh_recorder *r);
extern evt_rkh_recorder *volatile evt_rkh_user_rec_;
static inline int evt_rkh_user_on_(void)
{
    evt_rkh_recorder *r = evt_rkh_user_rec_;
    unsigned id = 0xC0u + EVT_USER_RKH_NUM;
    return r && ((EVT_LOAD_RLX(&r->emit[id >> 3]) >> (id & 7u)) & 1u);
}

/* ETW: user events are the events of this provider (control GUID = event class GUID, user_defs.h),
 * enabled on a session like any provider; evt_etw_user_attach(s, level) enables it on s (level:
 * ETW_LEVEL_*, user events are INFORMATION; 0 = all). Each enable starts a new session of registered
 * strings (its control callback calls evt_user_resend). Returns evt_etw_enable's status. */
extern evt_etw_provider evt_etw_user_provider;
uint32_t evt_etw_user_attach(evt_etw_session *s, uint8_t level);

/* The inline gates: non-zero while the backend records user events. */
#define EVT_USER_GATE_txtb() (EVT_LOAD_RLX(&evt_tx_hot_.gate.bits) & EVT_TX_TRACE_USER_EVENTS)
#ifdef __cplusplus /* evtrace/xray.h keeps its gate from C++ (it needs the POSIX port's C11 header) */
#define EVT_USER_GATE_xray() EVT_USER_XRAY_NOT_FROM_CXX_ /* an error naming the reason */
#else
#define EVT_USER_GATE_xray() (EVT_LOAD_RLX(&evt_xray_gate.bits))
#endif
#define EVT_USER_GATE_rkh() evt_rkh_user_on_()
#define EVT_USER_GATE_etw() evt_gate_bits(&evt_etw_user_provider.gate)

#define EVT_USER_CAT_(a, b) EVT_USER_CAT2_(a, b)
#define EVT_USER_CAT2_(a, b) a##b
#define EVT_USER_FN_(what) EVT_USER_FN2_(EVT_CFG_USER_BACKEND, what)
#define EVT_USER_FN2_(b, what) EVT_USER_FN3_(b, what)
#define EVT_USER_FN3_(b, what) evt_##b##_user_##what
#define EVT_USER_GATE_() EVT_USER_CAT_(EVT_USER_GATE_, EVT_CFG_USER_BACKEND)()

#ifdef __cplusplus
}
#endif

/* ---- argument tags at compile time ------------------------------------------------------------ */
#define EVT_USER_LONG_TAG_  (sizeof(long) == 8 ? EVT_USER_T_I64 : EVT_USER_T_I32)
#define EVT_USER_ULONG_TAG_ (sizeof(long) == 8 ? EVT_USER_T_U64 : EVT_USER_T_U32)
#define EVT_USER_PTR_TAG_   (sizeof(void *) == 8 ? EVT_USER_T_PTR64 : EVT_USER_T_PTR32)
#ifdef __cplusplus
/* C++ (11 or later): the same tags as C's _Generic below, from the type of the promoted argument
 * (+x: bool, char, short and unscoped enums become int, arrays pointers) alone, so the site stays a
 * constant (no guard on its static): any pointer takes the general case (a pointer tag), char * and
 * const char * their own (strings). */
template <typename T> struct evt_user_tag_cxx_ { static constexpr uint32_t v() { return EVT_USER_PTR_TAG_; } };
#define EVT_USER_TAG_CXX_(type, tag)                                                                 \
    template <> struct evt_user_tag_cxx_<type> { static constexpr uint32_t v() { return tag; } };
EVT_USER_TAG_CXX_(int, EVT_USER_T_I32)
EVT_USER_TAG_CXX_(unsigned int, EVT_USER_T_U32)
EVT_USER_TAG_CXX_(long, EVT_USER_LONG_TAG_)
EVT_USER_TAG_CXX_(unsigned long, EVT_USER_ULONG_TAG_)
EVT_USER_TAG_CXX_(long long, EVT_USER_T_I64)
EVT_USER_TAG_CXX_(unsigned long long, EVT_USER_T_U64)
EVT_USER_TAG_CXX_(float, EVT_USER_T_F64)
EVT_USER_TAG_CXX_(double, EVT_USER_T_F64)
EVT_USER_TAG_CXX_(long double, EVT_USER_T_LDBL)
EVT_USER_TAG_CXX_(char *, EVT_USER_T_STR)
EVT_USER_TAG_CXX_(const char *, EVT_USER_T_STR)
#undef EVT_USER_TAG_CXX_
#define EVT_USER_TAG_(x) (evt_user_tag_cxx_<decltype(+(x))>::v())
#else
#define EVT_USER_TAG_(x) __extension__ _Generic((x),                                                  \
    _Bool: EVT_USER_T_I32, char: EVT_USER_T_I32, signed char: EVT_USER_T_I32,                         \
    unsigned char: EVT_USER_T_I32, short: EVT_USER_T_I32, unsigned short: EVT_USER_T_I32,             \
    int: EVT_USER_T_I32, unsigned int: EVT_USER_T_U32, long: EVT_USER_LONG_TAG_,                      \
    unsigned long: EVT_USER_ULONG_TAG_, long long: EVT_USER_T_I64, unsigned long long: EVT_USER_T_U64, \
    float: EVT_USER_T_F64, double: EVT_USER_T_F64, long double: EVT_USER_T_LDBL,                      \
    char *: EVT_USER_T_STR, const char *: EVT_USER_T_STR, default: EVT_USER_PTR_TAG_)
#endif
#define EVT_USER_T_(x, k) ((uint32_t)EVT_USER_TAG_(x) << (4 * (k)))

#define EVT_USER_NARGS_(...) EVT_USER_NARGS2_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define EVT_USER_NARGS2_(f, a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define EVT_USER_FIRST_(...) EVT_USER_FIRST2_(__VA_ARGS__, ~)
#define EVT_USER_FIRST2_(f, ...) f
#define EVT_USER_SIG_(...) EVT_USER_CAT_(EVT_USER_SIG_N, EVT_USER_NARGS_(__VA_ARGS__))(__VA_ARGS__)
#define EVT_USER_SIG_N0(f) 0u
#define EVT_USER_SIG_N1(f, a) EVT_USER_T_(a, 0)
#define EVT_USER_SIG_N2(f, a, b) (EVT_USER_T_(a, 0) | EVT_USER_T_(b, 1))
#define EVT_USER_SIG_N3(f, a, b, c) (EVT_USER_SIG_N2(f, a, b) | EVT_USER_T_(c, 2))
#define EVT_USER_SIG_N4(f, a, b, c, d) (EVT_USER_SIG_N3(f, a, b, c) | EVT_USER_T_(d, 3))
#define EVT_USER_SIG_N5(f, a, b, c, d, e) (EVT_USER_SIG_N4(f, a, b, c, d) | EVT_USER_T_(e, 4))
#define EVT_USER_SIG_N6(f, a, b, c, d, e, g) (EVT_USER_SIG_N5(f, a, b, c, d, e) | EVT_USER_T_(g, 5))
#define EVT_USER_SIG_N7(f, a, b, c, d, e, g, h) (EVT_USER_SIG_N6(f, a, b, c, d, e, g) | EVT_USER_T_(h, 6))
#define EVT_USER_SIG_N8(f, a, b, c, d, e, g, h, i) (EVT_USER_SIG_N7(f, a, b, c, d, e, g, h) | EVT_USER_T_(i, 7))

/* EVT_USER_SITE_F_INTS when every tag of sig is END, I32 or U32 (a constant expression). */
#define EVT_USER_N_(sig, k) (((sig) >> (4 * (k))) & 0xFu)
#define EVT_USER_FLAGS_(sig)                                                                         \
    ((EVT_USER_N_(sig, 0) <= 2u && EVT_USER_N_(sig, 1) <= 2u && EVT_USER_N_(sig, 2) <= 2u &&          \
      EVT_USER_N_(sig, 3) <= 2u && EVT_USER_N_(sig, 4) <= 2u && EVT_USER_N_(sig, 5) <= 2u &&          \
      EVT_USER_N_(sig, 6) <= 2u && EVT_USER_N_(sig, 7) <= 2u) ? EVT_USER_SITE_F_INTS : 0u)

/* ---- sites ----------------------------------------------------------------------------------- */
#if EVT_CFG_USER_ELF
#define EVT_USER_SITE_ATTR_ __attribute__((section(".evt_user"), used, aligned(4)))
#define EVT_USER_SENT_DECL_(v) /* nothing: ELF sites are never registered */
#define EVT_USER_SENT_PTR_(v) ((uint32_t *)0)
#else
#define EVT_USER_SITE_ATTR_
#define EVT_USER_SENT_DECL_(v) static uint32_t v;
#define EVT_USER_SENT_PTR_(v) (&(v))
#endif
/* A site named var: header, channel literal, text literal (each at most 4095 bytes). */
#define EVT_USER_SITE_DECL_(var, kind, chan, text, sig)                                              \
    static const struct {                                                                            \
        evt_user_site_hdr h;                                                                         \
        char ch[sizeof(chan) + 0u * sizeof(char[sizeof(chan) <= EVT_USER_STRLEN_MAX + 1u ? 1 : -1])]; \
        char tx[sizeof(text) + 0u * sizeof(char[sizeof(text) <= EVT_USER_STRLEN_MAX + 1u ? 1 : -1])]; \
    } var EVT_USER_SITE_ATTR_ = {{EVT_USER_SITE_MAGIC, (sig), (uint16_t)sizeof(chan),                \
                                  (uint16_t)sizeof(text), (uint8_t)(kind), (uint8_t)EVT_USER_FLAGS_(sig), \
                                  {0, 0}}, chan, text}

/* The first three arguments after the format as words (0 for missing ones), for i3_: taken only
 * when the site is EVT_USER_SITE_F_INTS (each one an integer of at most 32 bits, so the word is its
 * value); the conversion compiles for any argument type and the branch that does not apply is
 * never run (its condition is a constant). */
#define EVT_USER_W_(x) ((uint32_t)(uintptr_t)(x))
#define EVT_USER_A3_(...) EVT_USER_A3X_(__VA_ARGS__, 0, 0, 0, ~)
#define EVT_USER_A3X_(f, a, b, c, ...) EVT_USER_W_(a), EVT_USER_W_(b), EVT_USER_W_(c)

#if EVT_CFG_USER
/* printf-style text on a channel: evt_printf("chan", "fmt", args...). */
#define evt_printf(chan, ...)                                                                        \
    do {                                                                                             \
        if (EVT_USER_GATE_()) {                                                                      \
            EVT_USER_SITE_DECL_(evt_site_, EVT_USER_K_PRINTF, chan, EVT_USER_FIRST_(__VA_ARGS__),    \
                                EVT_USER_SIG_(__VA_ARGS__));                                         \
            EVT_USER_SENT_DECL_(evt_sent_)                                                           \
            if (EVT_USER_NARGS_(__VA_ARGS__) <= 3 && (EVT_USER_FLAGS_(EVT_USER_SIG_(__VA_ARGS__)) & EVT_USER_SITE_F_INTS)) \
                EVT_USER_FN_(i3_)(&evt_site_.h, EVT_USER_SENT_PTR_(evt_sent_),                       \
                                  1u + EVT_USER_NARGS_(__VA_ARGS__), EVT_USER_A3_(__VA_ARGS__));     \
            else                                                                                     \
                EVT_USER_FN_(printf_)(&evt_site_.h, EVT_USER_SENT_PTR_(evt_sent_), __VA_ARGS__);     \
        }                                                                                            \
    } while (0)
/* One site with one argument (value, interval begin/end). */
#define EVT_USER_ONE_(kind, chan, fn, tag, v)                                                        \
    do {                                                                                             \
        if (EVT_USER_GATE_()) {                                                                      \
            EVT_USER_SITE_DECL_(evt_site_, kind, chan, "", (uint32_t)(tag));                         \
            EVT_USER_SENT_DECL_(evt_sent_)                                                           \
            EVT_USER_FN_(fn)(&evt_site_.h, EVT_USER_SENT_PTR_(evt_sent_), v);                        \
        }                                                                                            \
    } while (0)
/* A sample of a value channel (plotted): evt_value("chan", int64). */
#define evt_value(chan, v) EVT_USER_ONE_(EVT_USER_K_VALUE, chan, i64_, EVT_USER_T_I64, (int64_t)(v))
/* An interval of a channel: begin and end with the same id (any uint32_t). */
#define evt_interval_begin(chan, id) EVT_USER_ONE_(EVT_USER_K_IBEGIN, chan, u32_, EVT_USER_T_U32, (uint32_t)(id))
#define evt_interval_end(chan, id) EVT_USER_ONE_(EVT_USER_K_IEND, chan, u32_, EVT_USER_T_U32, (uint32_t)(id))
/* A user state machine named var (file or block scope): name and comma-separated state names,
 * literals. evt_state(var, i) records that it entered state i (0-based index into the names). */
#define EVT_STATE_MACHINE(var, name, states)                                                         \
    EVT_USER_SITE_DECL_(var, EVT_USER_K_STATE, name, states, EVT_USER_T_U32);                        \
    EVT_USER_SENT_DECL_(var##_evt_sent_)
#define evt_state(var, i)                                                                            \
    do {                                                                                             \
        if (EVT_USER_GATE_()) EVT_USER_FN_(u32_)(&(var).h, EVT_USER_SENT_PTR_(var##_evt_sent_), (uint32_t)(i)); \
    } while (0)
#else
#define evt_printf(chan, ...) ((void)0)
#define evt_value(chan, v) ((void)0)
#define evt_interval_begin(chan, id) ((void)0)
#define evt_interval_end(chan, id) ((void)0)
#define EVT_STATE_MACHINE(var, name, states) typedef int var##_evt_unused_
#define evt_state(var, i) ((void)0)
#endif

#endif
