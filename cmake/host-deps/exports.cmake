# SQLite for the sqlite exporter and `evtrace query` (Debian: libsqlite3-dev).
find_library(EVT_SQLITE3_LIB sqlite3 REQUIRED)
find_path(EVT_SQLITE3_INC sqlite3.h REQUIRED)
list(APPEND EVT_HOST_LIBS ${EVT_SQLITE3_LIB})
include_directories(${EVT_SQLITE3_INC})
