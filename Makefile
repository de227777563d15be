# gestured: the two commands of the README are `make run` and `make test`.
SWIFT ?= swift
SWIFTC ?= swiftc
BIN = .build/release/gestured
HELPER = .build/release/gestured-parse-config
TOPLEVELS = .build/release/gestured-toplevels
OVERLAY = .build/release/gestured-overlay
# The release build needs no Swift runtime on the target (--static-swift-stdlib), and
# links FoundationEssentials where TOMLKit and the desktops' JSON ask for Foundation
# (lean/Foundation.swift: the whole of Foundation would bring CoreFoundation and ICU).
# lld packs the relative relocations (RELR: kilobytes read at each start instead of a
# megabyte) and exports no symbols to the dynamic loader. Nothing else: what it costs in
# memory, BENCHMARKS.md measures.
LEAN = .build/lean
RELEASE = -c release --static-swift-stdlib -Xswiftc -I -Xswiftc $(LEAN) \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic

.PHONY: FORCE deps build docs deb run check test check-data install install-user install-user-unit install-own-daemon install-isolation install-common install-studio uninstall check-units

deps:
	scripts/install-deps

build: deps $(LEAN)/Foundation.swiftmodule
	$(SWIFT) build $(RELEASE)
	$(MAKE) -s $(TOPLEVELS) $(OVERLAY)

# Which application a wlroots compositor has in front (helpers/gestured-toplevels.c): a
# small C program that links libwayland-client, beside gestured in each build (SwiftPM
# would link the Swift runtime into it); Debian's hardening flags when dh exports them.
.build/%/gestured-toplevels: helpers/gestured-toplevels.c
	mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $$(pkg-config --cflags --libs wayland-client)

# The session agent's overlay on a layer-shell compositor (helpers/gestured-overlay.c),
# made as gestured-toplevels is.
.build/%/gestured-overlay: helpers/gestured-overlay.c
	mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $$(pkg-config --cflags --libs wayland-client) -lm

# The shim module is made again when the compiler changes: a module from another
# compiler cannot be imported ($(LEAN)/compiler holds the version it was made with).
$(LEAN)/Foundation.swiftmodule: lean/Foundation.swift $(LEAN)/compiler
	$(SWIFTC) -emit-module -parse-as-library -module-name Foundation lean/Foundation.swift -emit-module-path $@

$(LEAN)/compiler: FORCE
	@mkdir -p $(LEAN)
	@$(SWIFTC) --version 2>/dev/null > $@.new; if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

FORCE:

# gestured(8) from the command line's own help (swift-argument-parser's generate-manual:
# it cannot drift from --help), gestured.toml(5) (man/, checked against the parser by
# Core/Tests/ConfigTests), and the shell completions (bash's is sourced, not run: no #!).
DOCS = .build/docs
MANDATE = $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
docs: build
	mkdir -p $(DOCS)/man $(DOCS)/completions
	$(SWIFT) build --product generate-manual
	.build/debug/generate-manual $(BIN) --section 8 --date $(MANDATE) --output-directory $(DOCS)/man
	cp man/gestured.toml.5 $(DOCS)/man/
	$(BIN) --generate-completion-script bash | sed '1{/^#!/d}' > $(DOCS)/completions/gestured.bash
	$(BIN) --generate-completion-script zsh > $(DOCS)/completions/_gestured
	$(BIN) --generate-completion-script fish > $(DOCS)/completions/gestured.fish

# The Debian package (debian/, dpkg-buildpackage), in .build/deb/.
deb: docs
	scripts/make-deb

# The main job: the daemon in the foreground with the built-in configuration.
run: build
	$(BIN) run

# The fast tier, before a commit (under 2 minutes from a warm build): the pure core's
# tests (without the system libraries' headers), the adapters' tests, and `gestured
# check` over the shipped configurations. No VM, no release build.
check: deps
	scripts/test-core
	$(SWIFT) build
	$(MAKE) -s .build/debug/gestured-toplevels .build/debug/gestured-overlay
	$(SWIFT) test
	for file in config/*.toml; do .build/debug/gestured check "$$file" >/dev/null || exit 1; done

# The fast tier, then the daemon end to end on generated recordings with real peers
# (/bin/sh, a private dbus-daemon, dbus-monitor, busctl; modes and the control
# interface), and replay's pictures in a headless Chromium; side by side, the longest
# files in shares (tests/run-together), since most of their time is spent waiting on
# real-time replays.
test: check
	tests/run-together \
	    "python3 tests/toml_test.py .build/debug/gestured" \
	    "TEST_SHARE=1/3 python3 tests/test_daemon.py .build/debug/gestured" \
	    "TEST_SHARE=2/3 python3 tests/test_daemon.py .build/debug/gestured" \
	    "TEST_SHARE=3/3 python3 tests/test_daemon.py .build/debug/gestured" \
	    "python3 tests/test_control.py .build/debug/gestured" \
	    "TEST_SHARE=1/3 python3 tests/test_apps.py .build/debug/gestured" \
	    "TEST_SHARE=2/3 python3 tests/test_apps.py .build/debug/gestured" \
	    "TEST_SHARE=3/3 python3 tests/test_apps.py .build/debug/gestured" \
	    "python3 tests/studio.py .build/debug/gestured-studio .build/debug/gestured" \
	    "python3 tests/svg_screenshots.py .build/debug/gestured"
	scripts/check-units

# Acceptance checks over the real recordings and strokes beside the project (../shared/data).
check-data: build
	scripts/check-recordings ../shared/data $(BIN)
	scripts/check-strokes ../shared/data $(BIN)
	scripts/check-learn ../shared/data $(BIN)

# Installation (see docs/guide.md for the file list). PREFIX and DESTDIR are honoured.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
# gestured finds its TOML parser's process in ../libexec/gestured from its own directory.
HELPERDIR ?= $(PREFIX)/libexec/gestured
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
DBUSPOLICYDIR ?= $(SYSCONFDIR)/dbus-1/system.d
MODULESLOADDIR ?= $(SYSCONFDIR)/modules-load.d
CONFIG = $(DESTDIR)$(SYSCONFDIR)/gestured/gestured.toml
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'

# The seat daemon, the system service: the service's user reads touchscreens, and only them.
install: build install-common
	install -d $(DESTDIR)$(UNITDIR)
	$(SUBST) systemd/gestured.service > $(DESTDIR)$(UNITDIR)/gestured.service
	install -D -m 644 systemd/gestured.sysusers $(DESTDIR)$(SYSUSERSDIR)/gestured.conf
	install -D -m 644 udev/70-gestured.rules $(DESTDIR)$(UDEVRULESDIR)/70-gestured.rules
	install -D -m 644 dbus/org.gestured.Gestured1.conf $(DESTDIR)$(DBUSPOLICYDIR)/org.gestured.Gestured1.conf

# Isolation, keys, clicks and scrolling for the system service: its user may write to
# /dev/uinput (see docs/guide.md). The Debian package gestured-uinput holds these files.
install-isolation:
	install -D -m 644 udev/72-gestured-isolate.rules $(DESTDIR)$(UDEVRULESDIR)/72-gestured-isolate.rules
	install -D -m 644 modules-load.d/gestured-uinput.conf $(DESTDIR)$(MODULESLOADDIR)/gestured-uinput.conf

# The session agent, for a laptop's users (with `install`): each graphical session hands
# the service its user's gestures and runs their commands.
install-user: build install-common install-user-unit

# The session agent's user unit, without the binary: the Debian package gestured-user.
install-user-unit:
	install -d $(DESTDIR)$(USERUNITDIR)
	$(SUBST) systemd/gestured-agent.service > $(DESTDIR)$(USERUNITDIR)/gestured-agent.service

# Development, or a machine where the system service cannot be installed: gestured run
# as the user, in the session, reading the touchscreen through logind's uaccess (the
# seat's rule). Not packaged: no package lets session users read touchscreens.
install-own-daemon: build install-common
	install -d $(DESTDIR)$(USERUNITDIR)
	$(SUBST) systemd/gestured-user.service > $(DESTDIR)$(USERUNITDIR)/gestured.service
	install -D -m 644 udev/71-gestured-seat.rules $(DESTDIR)$(UDEVRULESDIR)/71-gestured-seat.rules

MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
# The GNOME Shell extension: an ES module for GNOME 45 and later, the legacy form for 43 and 44.
GNOME_EXTENSIONS = gestured@gestured.github.io gestured-43@gestured.github.io
# The studio (gestured studio): its binary, its .desktop entry and icon; the Debian
# package gestured-studio, so that a kiosk pulls in no toolkit.
STUDIO = .build/release/gestured-studio
install-studio: build
	install -D -m 755 $(STUDIO) $(DESTDIR)$(BINDIR)/gestured-studio
	install -D -m 644 man/gestured-studio.1 $(DESTDIR)$(MANDIR)/man1/gestured-studio.1
	install -D -m 644 desktop/studio/org.gestured.Studio.desktop $(DESTDIR)$(DATADIR)/applications/org.gestured.Studio.desktop
	install -D -m 644 desktop/studio/org.gestured.Studio.svg $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/org.gestured.Studio.svg

install-common: build docs
	install -D -m 755 $(BIN) $(DESTDIR)$(BINDIR)/gestured
	install -d $(DESTDIR)$(UDEVRULESDIR)
	$(SUBST) udev/90-gestured-twin.rules > $(DESTDIR)$(UDEVRULESDIR)/90-gestured-twin.rules
	install -D -m 755 $(HELPER) $(DESTDIR)$(HELPERDIR)/gestured-parse-config
	install -D -m 755 $(TOPLEVELS) $(DESTDIR)$(HELPERDIR)/gestured-toplevels
	install -D -m 755 $(OVERLAY) $(DESTDIR)$(HELPERDIR)/gestured-overlay
	install -D -m 644 $(DOCS)/man/gestured.8 $(DESTDIR)$(MANDIR)/man8/gestured.8
	install -D -m 644 $(DOCS)/man/gestured.toml.5 $(DESTDIR)$(MANDIR)/man5/gestured.toml.5
	install -D -m 644 $(DOCS)/completions/gestured.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/gestured
	install -D -m 644 $(DOCS)/completions/_gestured $(DESTDIR)$(DATADIR)/zsh/vendor-completions/_gestured
	install -D -m 644 $(DOCS)/completions/gestured.fish $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/gestured.fish
	install -D -m 644 desktop/kwin/metadata.json $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/metadata.json
	install -D -m 644 desktop/kwin/contents/code/main.js $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/contents/code/main.js
	for uuid in $(GNOME_EXTENSIONS); do \
	  install -D -m 644 desktop/gnome-shell/$$uuid/metadata.json $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$$uuid/metadata.json && \
	  install -D -m 644 desktop/gnome-shell/$$uuid/extension.js $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$$uuid/extension.js || exit 1; \
	done
	@if [ -e $(CONFIG) ]; then echo "keeping $(CONFIG)"; else install -D -m 644 config/gestured.toml $(CONFIG); fi

# Removes what the install targets put there; the configuration only if it is
# still the example.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gestured $(DESTDIR)$(BINDIR)/gestured-studio $(DESTDIR)$(HELPERDIR)/gestured-parse-config $(DESTDIR)$(HELPERDIR)/gestured-toplevels $(DESTDIR)$(HELPERDIR)/gestured-overlay \
	      $(DESTDIR)$(UNITDIR)/gestured.service \
	      $(DESTDIR)$(USERUNITDIR)/gestured.service $(DESTDIR)$(USERUNITDIR)/gestured-agent.service $(DESTDIR)$(SYSUSERSDIR)/gestured.conf \
	      $(DESTDIR)$(UDEVRULESDIR)/70-gestured.rules $(DESTDIR)$(UDEVRULESDIR)/71-gestured-seat.rules \
	      $(DESTDIR)$(UDEVRULESDIR)/72-gestured-isolate.rules $(DESTDIR)$(MODULESLOADDIR)/gestured-uinput.conf \
	      $(DESTDIR)$(UDEVRULESDIR)/90-gestured-twin.rules \
	      $(DESTDIR)$(DBUSPOLICYDIR)/org.gestured.Gestured1.conf \
	      $(DESTDIR)$(MANDIR)/man8/gestured.8 $(DESTDIR)$(MANDIR)/man5/gestured.toml.5 $(DESTDIR)$(MANDIR)/man1/gestured-studio.1 \
	      $(DESTDIR)$(DATADIR)/bash-completion/completions/gestured $(DESTDIR)$(DATADIR)/zsh/vendor-completions/_gestured \
	      $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/gestured.fish \
	      $(DESTDIR)$(DATADIR)/applications/org.gestured.Studio.desktop $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/org.gestured.Studio.svg \
	      $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/metadata.json $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/contents/code/main.js \
	      $(foreach uuid,$(GNOME_EXTENSIONS),$(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(uuid)/metadata.json \
	        $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(uuid)/extension.js)
	rmdir $(DESTDIR)$(HELPERDIR) $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/contents/code $(DESTDIR)$(DATADIR)/kwin/scripts/gestured/contents \
	      $(DESTDIR)$(DATADIR)/kwin/scripts/gestured $(foreach uuid,$(GNOME_EXTENSIONS),$(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(uuid)) 2>/dev/null || true
	@if cmp -s config/gestured.toml $(CONFIG); then rm -f $(CONFIG); rmdir $(dir $(CONFIG)) 2>/dev/null || true; \
	 elif [ -e $(CONFIG) ]; then echo "keeping $(CONFIG): it was changed"; fi
