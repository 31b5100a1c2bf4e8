# Install tests (tests/install/check_install.sh): this build installed into a temporary prefix and
# consumed by the out-of-tree programs consumer_recorder/ and consumer_host/, each with
# find_package(evtrace) and with pkg-config; a recorder-only build with SQLite made unfindable; and
# the parent project consumer_subdir/, which uses the source tree in-tree with add_subdirectory
# (both halves, and recorder only).
# Not in sanitizer or fuzz builds (the installed libraries would carry the instrumentation), and
# labelled `install` (the ASan/TSan stages of make check run other labels).
if(NOT EVT_SANITIZE AND NOT EVT_FUZZ)
  set(_inst_sh ${CMAKE_CURRENT_LIST_DIR}/check_install.sh)
  add_test(NAME install/find_package_and_pkgconfig
    COMMAND bash ${_inst_sh} full ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/install-test/full
            ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR})
  add_test(NAME install/recorder_only_without_sqlite
    COMMAND bash ${_inst_sh} recorder-only ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/install-test/recorder
            ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR} $<TARGET_FILE:evtrace>)
  add_test(NAME install/add_subdirectory
    COMMAND bash ${_inst_sh} subdirectory ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/install-test/subdir
            ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR} $<TARGET_FILE:evtrace> both)
  add_test(NAME install/add_subdirectory_recorder_only
    COMMAND bash ${_inst_sh} subdirectory ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/install-test/subdir-rec
            ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR} $<TARGET_FILE:evtrace> recorder-only)
  set_tests_properties(install/find_package_and_pkgconfig install/recorder_only_without_sqlite
                       install/add_subdirectory install/add_subdirectory_recorder_only
                       PROPERTIES LABELS install TIMEOUT 600)
endif()
