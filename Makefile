# gestured: the two commands of the README are `make run` and `make test`.
SWIFT ?= swift
BIN = .build/release/gestured

.PHONY: deps build run test check-data

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build -c release

# The main job: for now a replay of the bundled recording (the daemon replaces it).
run: build
	$(BIN) replay --touches examples/two-fingers.evemu

# Unit tests, then the daemon end to end on generated recordings with real peers
# (/bin/sh, a private dbus-daemon, dbus-monitor, busctl).
test: deps
	$(SWIFT) build
	$(SWIFT) test
	python3 tests/test_daemon.py .build/debug/gestured

# Acceptance checks over the real recordings and strokes beside the project (../shared/data).
check-data: build
	scripts/check-recordings ../shared/data $(BIN)
	scripts/check-strokes ../shared/data/strokes $(BIN)
