# The README's commands run as printed in a fresh copy of the repository (tests/repo/check_readme.py):
# `make run` builds there from scratch, so this is slow-ish; labelled `readme` (not run by the
# sanitizer stages of make check, which select other labels).
add_test(NAME repo/readme_commands
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_readme.py ${PROJECT_SOURCE_DIR}
          ${PROJECT_BINARY_DIR}/readme-test)
set_tests_properties(repo/readme_commands PROPERTIES LABELS readme TIMEOUT 1800)
