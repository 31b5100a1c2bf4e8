# libmicrohttpd for `evtrace live` (Debian: libmicrohttpd-dev): the local HTTP server of the live
# view (src/host/live/). Found with pkg-config; built against its headers and loaded when a live
# view starts its server (src/host/lazy_lib.h: linked normally, it and the TLS libraries it brings
# cost every evtrace start 4.7 ms), by the soname of the library found here (EVT_MHD_SONAME). The
# live session is its own static library, linked into the command only. Its page script
# (src/host/live/live.js) is embedded as a C string.
find_package(PkgConfig REQUIRED)
pkg_check_modules(MHD REQUIRED libmicrohttpd)
file(GLOB EVT_LIVE_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/host/live/*.c)
set(EVT_LIVE_JS_C ${PROJECT_BINARY_DIR}/gen/live_js.c)
add_custom_command(OUTPUT ${EVT_LIVE_JS_C}
  COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/src/host/live/live.js -DOUT=${EVT_LIVE_JS_C}
          -DNAME=evt_live_js -P ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/src/host/live/live.js ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake)
add_library(evtrace_live STATIC ${EVT_LIVE_SRC} ${EVT_LIVE_JS_C})
target_include_directories(evtrace_live PRIVATE ${PROJECT_SOURCE_DIR}/src/host)
evt_soname_of(EVT_MHD_SONAME "${MHD_LINK_LIBRARIES}" "libmicrohttpd.so.12")
target_include_directories(evtrace_live PRIVATE ${MHD_INCLUDE_DIRS})
target_compile_definitions(evtrace_live PRIVATE EVT_MHD_SONAME="${EVT_MHD_SONAME}")
target_link_libraries(evtrace_live PUBLIC evtrace_host)
