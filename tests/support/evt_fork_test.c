/* Fork helper for the fork tests (see evt_fork_test.h). */
#include "evt_fork_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int status_of(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 256 + WTERMSIG(status) : -1;
}

/* Fork a child that runs child() (which must not return): its pid, or -1. */
static pid_t spawn(void (*child)(void))
{
    pid_t p = fork();
    if (p == 0) {
        child();
        _exit(127); /* child() must not return */
    }
    return p;
}

int evt_test_fork_run(void (*child)(void))
{
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    pid_t p = spawn(child);
    if (p < 0) return -1;
    int status;
    if (waitpid(p, &status, 0) != p) return -1;
    return status_of(status);
}

int evt_test_fork_run_for(void (*child)(void), unsigned seconds)
{
    pid_t p = spawn(child);
    if (p < 0) return -1;
    int status;
    for (unsigned ms = 0; ms < seconds * 1000u; ms += 10u) {
        pid_t w = waitpid(p, &status, WNOHANG);
        if (w == p) return status_of(status);
        if (w < 0) return -1;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    kill(p, SIGKILL); /* hung */
    if (waitpid(p, &status, 0) != p) return -1;
    return status_of(status);
}

const char *evt_test_fork_how(int result)
{
    return result >= 256 ? "killed by signal (hung: alarm)" : result < 0 ? "fork/waitpid failed" : "exit";
}
