# libcurl for the ClickHouse export over HTTP and HTTPS (Debian: libcurl4-openssl-dev): TLS with
# certificate checks, authentication, time limits (README: why libcurl). CMake's FindCURL gives the
# imported target CURL::libcurl; the installed CMake package finds it again (EVT_HOST_PACKAGES)
# and pkg-config users link -lcurl (EVT_HOST_PC_LIBS).
find_package(CURL REQUIRED)
list(APPEND EVT_HOST_LIBS CURL::libcurl)
list(APPEND EVT_HOST_PACKAGES CURL)
list(APPEND EVT_HOST_PC_LIBS -lcurl)
