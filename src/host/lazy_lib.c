/* evt_lazy_load: dlopen a library by its soname on first use and resolve every symbol its user
 * listed (lazy_lib.h). The handle is never closed: the pointers stay valid for the process. */
#include "lazy_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym's void * holds a function pointer");

static int load_(evt_lazy_lib *lib)
{
    void *h = NULL;
    const char *why = "no soname given";
    for (const char *const *n = lib->sonames; *n && !h; n++) {
        h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
        if (!h) why = dlerror();
    }
    if (!h) {
        snprintf(lib->msg, sizeof lib->msg, "%s cannot be loaded (%s): %s; install it (Debian: scripts/deps.sh)",
                 lib->what, lib->sonames[0] ? lib->sonames[0] : "?", why ? why : "unknown error");
        return -1;
    }
    for (size_t i = 0; lib->syms[i]; i++) {
        void *p = dlsym(h, lib->syms[i]);
        if (!p) {
            snprintf(lib->msg, sizeof lib->msg, "%s: symbol %s is missing (an older library than the build's?)",
                     lib->what, lib->syms[i]);
            static void *const none = NULL; /* no pointer into the library closed below stays behind */
            while (i--) memcpy(lib->slots[i], &none, sizeof none);
            dlclose(h);
            return -1;
        }
        memcpy(lib->slots[i], &p, sizeof p); /* POSIX: a function's address round-trips through void * */
    }
    return 0;
}

int evt_lazy_load(evt_lazy_lib *lib, char *err, size_t errlen)
{
    pthread_mutex_lock(&lib->mu);
    if (lib->state == 0) lib->state = load_(lib) == 0 ? 1 : -1;
    int ok = lib->state == 1;
    if (!ok && err && errlen) snprintf(err, errlen, "%s", lib->msg);
    pthread_mutex_unlock(&lib->mu);
    return ok ? 0 : -1;
}
