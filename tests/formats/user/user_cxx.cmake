# evtrace/user.h from a C++ application (Cortex-M: the POSIX port's header is C11): the argument tags
# of C's _Generic, constant sites, the backends by their C names (check_freertos.py cxx compiles and
# reads the object's undefined names). The Cortex-M cross C++ compiler is optional.
find_program(EVT_ARM_GXX arm-none-eabi-g++)
find_program(EVT_ARM_NM arm-none-eabi-nm)
if(EVT_ARM_GXX AND EVT_ARM_NM AND EVT_SANITIZE STREQUAL "")
  foreach(cfg txtb_0 txtb_1 rkh_0 etw_0)
    string(REPLACE "_" ";" parts ${cfg})
    list(GET parts 0 backend)
    list(GET parts 1 elf)
    add_test(NAME formats/user/user_header_cxx_${cfg}
      COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/check_freertos.py cxx ${EVT_ARM_GXX} ${EVT_ARM_NM}
              ${PROJECT_SOURCE_DIR}/tests/formats/user/user_header_cxx.cpp
              -mcpu=cortex-m4 -mthumb -std=c++11 -Os -Wall -Wextra -Werror -DEVT_CFG_USER_BACKEND=${backend}
              -DEVT_CFG_USER_ELF=${elf} -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src/ports/cortex-m)
    set_tests_properties(formats/user/user_header_cxx_${cfg} PROPERTIES LABELS unit TIMEOUT 60)
  endforeach()
endif()
