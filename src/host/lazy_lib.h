/* Shared libraries loaded on first use (dlopen), not at every start. libcurl (the ClickHouse
 * export over HTTP) and libmicrohttpd (the live view's server) bring about 35 libraries with them
 * (TLS, Kerberos, LDAP): linked normally, loading them took 12.4 ms of every `evtrace` start on
 * the project's VM, where a command that needs neither starts in about 3 ms. A library's user
 * lists its functions once, without their prefix, in an X-macro that passes its second argument
 * on, and declares their pointers and the library with EVT_LAZY_LIB:
 *
 *     #define CURL_FNS(X, A) X(easy_init, A) X(easy_cleanup, A)
 *     EVT_LAZY_LIB(C, g_curl_lib, "libcurl", curl_, CURL_FNS, "libcurl.so.4", "libcurl.so")
 *
 * gives `static struct { __typeof__(curl_easy_init) *easy_init; ... } C;` and the library
 * g_curl_lib that fills it; the user calls evt_lazy_load(&g_curl_lib, ...) before its first
 * C.easy_init() (http_client.c, live/live_http.c). Every symbol is resolved at once, so a
 * library that loads is complete, and one that does not is an error message, never a crash
 * later. */
#ifndef EVT_LAZY_LIB_H
#define EVT_LAZY_LIB_H

#include <pthread.h>
#include <stddef.h>

typedef struct evt_lazy_lib {
    const char *what;            /* "libcurl", for messages */
    const char *const *sonames;  /* tried in order, NULL-terminated (the build's soname first) */
    const char *const *syms;     /* symbol names, NULL-terminated ... */
    void *const *slots;          /* ... and where each goes (a function pointer's storage) */
    pthread_mutex_t mu;          /* PTHREAD_MUTEX_INITIALIZER */
    int state;                   /* 0 not tried, 1 loaded, -1 failed (msg says why) */
    char msg[512];
} evt_lazy_lib;

#define EVT_LAZY_MEMBER_(n, P) __typeof__(P##n) *n;
#define EVT_LAZY_NAME_(n, P) #P #n,
#define EVT_LAZY_SLOT_(n, API) (void *)&API.n,
#define EVT_LAZY_LIB(API, LIB, WHAT, PREFIX, FNS, ...)                                                  \
    static struct { FNS(EVT_LAZY_MEMBER_, PREFIX) } API;                                             \
    static const char *const LIB##_sonames_[] = {__VA_ARGS__, NULL};                                 \
    static const char *const LIB##_syms_[] = {FNS(EVT_LAZY_NAME_, PREFIX) NULL};                     \
    static void *const LIB##_slots_[] = {FNS(EVT_LAZY_SLOT_, API) NULL};                             \
    static evt_lazy_lib LIB = {WHAT, LIB##_sonames_, LIB##_syms_, LIB##_slots_, PTHREAD_MUTEX_INITIALIZER, 0, ""}

/* Load lib once (thread-safe; later calls return the first call's answer). 0 when every symbol
 * is resolved; -1 with the reason in err (the library or the symbol that is missing). */
int evt_lazy_load(evt_lazy_lib *lib, char *err, size_t errlen);

#endif
