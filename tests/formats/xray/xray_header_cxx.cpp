// evtrace/xray.h from C++ (g++ and clang++ compile it without the port header): the explicit API
// as functions, the gate tested inside them. Compiled by tests/formats/xray/xray.cmake.
#include "evtrace/xray.h"

int main()
{
    evt_xray_config cfg = {4096, 8, 1};
    if (evt_xray_start(&cfg) != 0) return 1;
    evt_xray_enter(1);
    evt_xray_exit(1);
    return evt_xray_stop();
}
