# The word test (docs/model.md): no format's or kernel's word (TTS_, RDY, MUTEX_GET, intno,
# state_entered, loc_mtx, ...) under src/host/{timeline,analyses,exporters,report}: they read the
# typed meaning block, the readers and kernel profiles decide it.
add_test(NAME repo/no_format_words
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_words.py ${PROJECT_SOURCE_DIR})
set_tests_properties(repo/no_format_words PROPERTIES LABELS unit TIMEOUT 60)
