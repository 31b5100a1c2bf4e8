# No system()/popen() (nor os.system/os.popen/shell=True) in the product, tests, benches, fuzz targets.
add_test(NAME cli/no_shell COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_no_shell.py ${PROJECT_SOURCE_DIR})
set_tests_properties(cli/no_shell PROPERTIES LABELS unit TIMEOUT 60)
