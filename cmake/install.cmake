# Install rules (cmake --install / make install PREFIX=...):
#   bin/evtrace                                   the command (host half)
#   lib/libevtrace_host.a, lib/libevtrace_recorder.a
#   include/evtrace/*.h                           every public header (by glob), plus the recorder
#                                                 port's evt_port_impl.h beside port.h, which
#                                                 includes it by a quoted name
#   lib/cmake/evtrace/                            find_package(evtrace [COMPONENTS host recorder]):
#                                                 targets evtrace::host, evtrace::recorder
#   lib/pkgconfig/evtrace.pc, evtrace-recorder.pc pkg-config, relocatable (${pcfiledir})
#   share/man/man1/evtrace.1, share/bash-completion/completions/evtrace   made by the command from
#                                                 its option table (cmake/docs.cmake)
# A half that is not built (EVT_BUILD_HOST / EVT_BUILD_RECORDER OFF) is not installed; its
# component is then reported missing by find_package. Under add_subdirectory (EVT_INSTALL OFF by
# default) none of it is declared: the parent project's install installs nothing of evtrace; the
# libraries keep their names (libevtrace_recorder.a) all the same.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(EVT_BUILD_RECORDER)
  set_target_properties(evtrace_rec PROPERTIES EXPORT_NAME recorder OUTPUT_NAME evtrace_recorder)
  target_include_directories(evtrace_rec INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endif()
if(EVT_BUILD_HOST)
  set_target_properties(evtrace_host PROPERTIES EXPORT_NAME host)
  target_include_directories(evtrace_host INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endif()
if(NOT EVT_INSTALL)
  return()
endif()

set(EVT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/evtrace)
set(EVT_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

file(GLOB EVT_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/evtrace/*.h)
install(FILES ${EVT_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/evtrace)

# The prefix as seen from the .pc files, so the installed tree can be moved.
file(RELATIVE_PATH EVT_PC_TO_PREFIX /evt-prefix/${EVT_PC_DIR} /evt-prefix)
string(REGEX REPLACE "/$" "" EVT_PC_TO_PREFIX "${EVT_PC_TO_PREFIX}")
set(EVT_PC_PREFIX "\${pcfiledir}/${EVT_PC_TO_PREFIX}")

if(EVT_BUILD_RECORDER)
  install(TARGETS evtrace_rec EXPORT evtrace-recorder-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/src/ports/${EVT_PORT}/evt_port_impl.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/evtrace)
  install(EXPORT evtrace-recorder-targets NAMESPACE evtrace:: DESTINATION ${EVT_CMAKE_DIR})
  set(EVT_PC_REC_LIBS "")
  if(EVT_PORT STREQUAL "posix")
    set(EVT_PC_REC_LIBS "-pthread")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/evtrace-recorder.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/evtrace-recorder.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/evtrace-recorder.pc DESTINATION ${EVT_PC_DIR})
endif()

if(EVT_BUILD_HOST)
  install(TARGETS evtrace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS evtrace_host EXPORT evtrace-host-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT evtrace-host-targets NAMESPACE evtrace:: DESTINATION ${EVT_CMAKE_DIR})
  list(JOIN EVT_HOST_PC_LIBS " " EVT_PC_HOST_LIBS)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/evtrace.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/evtrace.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/evtrace.pc DESTINATION ${EVT_PC_DIR})
endif()

include(${CMAKE_CURRENT_LIST_DIR}/docs.cmake) # man page and bash completion

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/evtraceConfig.cmake.in
  ${PROJECT_BINARY_DIR}/evtraceConfig.cmake INSTALL_DESTINATION ${EVT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/evtraceConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/evtraceConfig.cmake ${PROJECT_BINARY_DIR}/evtraceConfigVersion.cmake
        DESTINATION ${EVT_CMAKE_DIR})
