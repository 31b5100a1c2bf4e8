# evt_soname_of(VAR LIBS FALLBACK): the SONAME of the first shared library in LIBS that names one
# (objdump -p), else FALLBACK. For the libraries the host tool loads on first use
# (src/host/lazy_lib.h): it loads the same library it was built against.
function(evt_soname_of var libs fallback)
  set(name "${fallback}")
  foreach(lib ${libs})
    if(CMAKE_OBJDUMP AND EXISTS "${lib}")
      execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${lib}" OUTPUT_VARIABLE out ERROR_QUIET RESULT_VARIABLE rc)
      if(rc EQUAL 0 AND out MATCHES "SONAME +([^ \r\n]+)")
        set(name "${CMAKE_MATCH_1}")
        break()
      endif()
    endif()
  endforeach()
  set(${var} "${name}" PARENT_SCOPE)
endfunction()
