# The man page (evtrace.1) and the bash completion (evtrace.bash), written by the built command from
# its one option table (src/cli/options.def, `evtrace help --man|--bash-completion`) and installed
# by `make install`: share/man/man1/evtrace.1, share/bash-completion/completions/evtrace.
if(EVT_BUILD_HOST AND NOT CMAKE_CROSSCOMPILING)
  set(EVT_MAN ${PROJECT_BINARY_DIR}/doc/evtrace.1)
  set(EVT_BASHCOMP ${PROJECT_BINARY_DIR}/doc/evtrace.bash)
  add_custom_command(OUTPUT ${EVT_MAN}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/doc
    COMMAND ${CMAKE_COMMAND} -DEVTRACE=$<TARGET_FILE:evtrace> -DARG=--man -DOUT=${EVT_MAN}
            -P ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake
    DEPENDS evtrace ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake VERBATIM)
  add_custom_command(OUTPUT ${EVT_BASHCOMP}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/doc
    COMMAND ${CMAKE_COMMAND} -DEVTRACE=$<TARGET_FILE:evtrace> -DARG=--bash-completion -DOUT=${EVT_BASHCOMP}
            -P ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake
    DEPENDS evtrace ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake VERBATIM)
  add_custom_target(evtrace_docs ALL DEPENDS ${EVT_MAN} ${EVT_BASHCOMP})
  install(FILES ${EVT_MAN} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${EVT_BASHCOMP} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME evtrace)
endif()
