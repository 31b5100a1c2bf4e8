# Dependency profiles: make run installs no test-only package; README table == scripts/deps.txt.
add_test(NAME repo/deps_profiles
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_deps.py ${PROJECT_SOURCE_DIR})
set_tests_properties(repo/deps_profiles PROPERTIES LABELS unit TIMEOUT 60)
