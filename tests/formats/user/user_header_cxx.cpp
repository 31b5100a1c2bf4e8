// evtrace/user.h from C++ (11 or later), compiled for Cortex-M by check_freertos.py cxx (the POSIX
// port's header is C11, not C++): every argument type gets the tag C's _Generic gives it (checked at
// compile time below), each call's site is a constant (no __cxa_guard: a guarded static would take
// a lock in an interrupt), and the backends are called by their C names.
#include "evtrace/user.h"

enum color { RED, GREEN };
#define EVT_TAG_IS_(x, t) static_assert(EVT_USER_TAG_(x) == (t), #x)
EVT_TAG_IS_(true, EVT_USER_T_I32);
EVT_TAG_IS_((char)1, EVT_USER_T_I32);
EVT_TAG_IS_((signed char)1, EVT_USER_T_I32);
EVT_TAG_IS_((unsigned char)1, EVT_USER_T_I32);
EVT_TAG_IS_((short)1, EVT_USER_T_I32);
EVT_TAG_IS_((unsigned short)1, EVT_USER_T_I32);
EVT_TAG_IS_(GREEN, EVT_USER_T_I32);
EVT_TAG_IS_(1, EVT_USER_T_I32);
EVT_TAG_IS_(1u, EVT_USER_T_U32);
EVT_TAG_IS_(1l, EVT_USER_LONG_TAG_);
EVT_TAG_IS_(1ul, EVT_USER_ULONG_TAG_);
EVT_TAG_IS_(1ll, EVT_USER_T_I64);
EVT_TAG_IS_(1ull, EVT_USER_T_U64);
EVT_TAG_IS_(1.0f, EVT_USER_T_F64);
EVT_TAG_IS_(1.0, EVT_USER_T_F64);
EVT_TAG_IS_(1.0l, EVT_USER_T_LDBL);
EVT_TAG_IS_("literal", EVT_USER_T_STR);
EVT_TAG_IS_((char *)0, EVT_USER_T_STR);
EVT_TAG_IS_((const char *)0, EVT_USER_T_STR);
EVT_TAG_IS_((void *)0, EVT_USER_PTR_TAG_);
EVT_TAG_IS_((const int *)0, EVT_USER_PTR_TAG_);
EVT_TAG_IS_((unsigned char *)0, EVT_USER_PTR_TAG_);

EVT_STATE_MACHINE(motor, "motor", "idle,spin_up,run,fault");

int app(int ch, unsigned mv, const char *name, double volts, void *p, char buf[8], long long big)
{
    evt_printf("adc", "ch %d: %u mV", ch, mv);                        // the one-slot path (i3_)
    evt_printf("adc", "ch %d: %s %f %p %s %lld", ch, name, volts, p, buf, big); // the general path
    evt_value("temp", ch);
    evt_interval_begin("dma", 3u);
    evt_interval_end("dma", 3u);
    evt_state(motor, 2);
    return 0;
}
