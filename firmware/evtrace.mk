# evtrace firmware kit: make fragment. Include it from your firmware Makefile after setting
# EVTRACE_DIR (this folder) and EVTRACE_PORT (a folder under $(EVTRACE_DIR)/src/ports, default
# cortex-m); then add $(EVTRACE_SRC) to your sources and $(EVTRACE_CFLAGS) to your CFLAGS.
#
#   EVTRACE_DIR := third_party/evtrace
#   include $(EVTRACE_DIR)/evtrace.mk
#   SRC    += $(EVTRACE_SRC)
#   CFLAGS += $(EVTRACE_CFLAGS)
#
# The recorder is freestanding C99: it needs no libc. Compile it with your flags (-mcpu=..., -O2/-Os);
# -fno-tree-loop-distribute-patterns keeps GCC from turning its copy loops into memcpy calls.
EVTRACE_PORT ?= cortex-m
EVTRACE_SRC := $(sort $(wildcard $(EVTRACE_DIR)/src/core/*.c) \
                      $(wildcard $(EVTRACE_DIR)/src/formats/*/*_enc.c) \
                      $(wildcard $(EVTRACE_DIR)/src/kernel/*/*.c) \
                      $(wildcard $(EVTRACE_DIR)/src/transport/*.c) \
                      $(wildcard $(EVTRACE_DIR)/src/ports/$(EVTRACE_PORT)/*.c))
EVTRACE_CFLAGS := -ffreestanding -fno-tree-loop-distribute-patterns \
                  -I$(EVTRACE_DIR) -I$(EVTRACE_DIR)/include -I$(EVTRACE_DIR)/src \
                  -I$(EVTRACE_DIR)/src/ports/$(EVTRACE_PORT) \
                  -DEVT_CFG_USER_HEADER='"evtrace_config.h"'
