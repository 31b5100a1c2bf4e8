# libcurl for the ClickHouse export over HTTP and HTTPS (Debian: libcurl4-openssl-dev): TLS with
# certificate checks, authentication, time limits (README: why libcurl). Built against its headers
# and loaded on the first request (src/host/lazy_lib.h: linked normally, it and the ~30 libraries
# it brings cost every evtrace start 12 ms), by the soname of the library found here
# (EVT_CURL_SONAME). So the host library links only the dynamic loader's interface (dl).
find_package(CURL REQUIRED)
evt_soname_of(EVT_CURL_SONAME "${CURL_LIBRARIES}" "libcurl.so.4")
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/host/http_client.c APPEND PROPERTY
  COMPILE_DEFINITIONS EVT_CURL_SONAME="${EVT_CURL_SONAME}")
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/host/http_client.c APPEND PROPERTY
  INCLUDE_DIRECTORIES ${CURL_INCLUDE_DIRS})
list(APPEND EVT_HOST_LIBS ${CMAKE_DL_LIBS})
if(CMAKE_DL_LIBS)
  list(APPEND EVT_HOST_PC_LIBS -l${CMAKE_DL_LIBS})
endif()
