# XRay oracle tests (tests/formats/xray/xray_oracle.py): the shared sample against llvm-xray's YAML
# and summary, clang -fxray-instrument programs under compiler-rt's FDR and basic modes against
# `llvm-xray convert`, and evtrace's own XRay recorder against `llvm-xray fdr-dump --verify`.
# They need python3 (+ python3-yaml), clang and llvm-xray, and FAIL when one is missing.
set(_xr_py ${PROJECT_SOURCE_DIR}/tests/formats/xray/xray_oracle.py)
set(_xr_work ${PROJECT_BINARY_DIR}/xray-oracle)
add_test(NAME formats/xray/xray_oracle_sample
         COMMAND python3 ${_xr_py} sample $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
add_test(NAME formats/xray/xray_oracle_fdr
         COMMAND python3 ${_xr_py} fdr $<TARGET_FILE:evtrace> ${PROJECT_SOURCE_DIR} ${_xr_work}/fdr)
add_test(NAME formats/xray/xray_oracle_basic
         COMMAND python3 ${_xr_py} basic $<TARGET_FILE:evtrace> ${PROJECT_SOURCE_DIR} ${_xr_work}/basic)
add_test(NAME formats/xray/xray_oracle_rec
         COMMAND python3 ${_xr_py} rec $<TARGET_FILE:evtrace> ${PROJECT_SOURCE_DIR} ${_xr_work}/rec)
add_test(NAME formats/xray/xray_oracle_cyg
         COMMAND python3 ${_xr_py} cyg $<TARGET_FILE:evtrace> ${PROJECT_SOURCE_DIR} ${_xr_work}/cyg)
add_test(NAME formats/xray/xray_oracle_corpus
         COMMAND python3 ${_xr_py} corpus $<TARGET_FILE:evtrace> ${PROJECT_SOURCE_DIR}/fuzz/corpus/xray)
set_tests_properties(formats/xray/xray_oracle_corpus formats/xray/xray_oracle_cyg formats/xray/xray_oracle_sample formats/xray/xray_oracle_fdr
                     formats/xray/xray_oracle_basic formats/xray/xray_oracle_rec
                     PROPERTIES LABELS unit TIMEOUT 300)

# evtrace/xray.h must stay usable from C++ (its extern "C" API): compile a C++ caller with the
# system C++ compiler (syntax and types; the port header is not on its include path).
find_program(EVT_CXX NAMES g++ clang++ c++)
if(EVT_CXX)
  add_test(NAME formats/xray/xray_header_cxx
           COMMAND ${EVT_CXX} -std=c++11 -Wall -Werror -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
                   ${PROJECT_SOURCE_DIR}/tests/formats/xray/xray_header_cxx.cpp)
  set_tests_properties(formats/xray/xray_header_cxx PROPERTIES LABELS unit TIMEOUT 60)
endif()
