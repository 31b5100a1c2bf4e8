# SQLite for the sqlite exporter and `evtrace query` (Debian: libsqlite3-dev). CMake's FindSQLite3
# gives the imported target SQLite::SQLite3; the installed CMake package finds it again
# (EVT_HOST_PACKAGES) and pkg-config users link -lsqlite3 (EVT_HOST_PC_LIBS).
find_package(SQLite3 REQUIRED)
list(APPEND EVT_HOST_LIBS SQLite::SQLite3)
list(APPEND EVT_HOST_PACKAGES SQLite3)
list(APPEND EVT_HOST_PC_LIBS -lsqlite3)
